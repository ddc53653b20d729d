/**
 * The JQL calls the console makes on its own behalf (health, sign-in, describe) and the request a
 * user's query becomes. Framework-free: it talks through a Transport and is tested with a fake one.
 */
import { isSameOrigin } from '../../shared/origin.ts';
import { plainLabel } from '../../shared/plain-label.ts';
import type { AuthenticationClass, DescribeResult, JqlError } from '../../shared/protocol.ts';
import { normalizeParsed } from '../response/normalize-envelope.ts';
import type { HttpRequestSpec, Transport } from './transport.ts';

/** Everything needed to address one server as one user. */
export interface ServerTarget {
  connectionId: string;
  /** Origin plus base path, without a trailing slash: `http://127.0.0.1:8787` or `https://h/api`. */
  baseUrl: string;
  authClass: AuthenticationClass;
  /** The bearer token the page holds (browser mode, jwt); null in the desktop app, where main holds it. */
  token: string | null;
  /**
   * The page holds no credential for this target, yet its own goes with the requests made as its
   * user: the one main adds in the desktop app, or browser mode's HttpOnly local admin cookie.
   */
  heldCredential?: boolean;
}

/** Whether requests made as this target carry a user's credential, wherever it is held. */
export function hasCredential(target: ServerTarget): boolean {
  return target.token !== null || target.heldCredential === true;
}

export interface RunOptions {
  /** PROTOCOL.md 8: 0 asks for no diagnostics. */
  queryInfoLevel: 0 | 1 | 2;
  flatEnvelope?: boolean;
}

export interface SignedInUser {
  id?: number;
  username: string;
  roles?: string[];
}

export interface LoginResult {
  token: string;
  expiresAt: string | null;
  user: SignedInUser;
}

export interface Health {
  status: string;
  version: string;
}

/** A JQL call that answered with errors; `status` 0 never happens here (that is a NetworkError). */
export class JqlCallError extends Error {
  override readonly name = 'JqlCallError';
  readonly status: number;
  readonly errors: JqlError[];

  constructor(status: number, errors: JqlError[]) {
    super(errors[0]?.message ?? `The server answered ${status}.`);
    this.status = status;
    this.errors = errors;
  }
  get code(): string | undefined {
    return this.errors[0]?.code;
  }
}

export function trimBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

export function jqlEndpoint(baseUrl: string, options: RunOptions = { queryInfoLevel: 0 }): string {
  const params = new URLSearchParams();
  if (options.queryInfoLevel > 0) params.set('query_info_level', String(options.queryInfoLevel));
  if (options.flatEnvelope) params.set('envelope', 'flat');
  const query = params.toString();
  return `${trimBaseUrl(baseUrl)}/jql${query ? `?${query}` : ''}`;
}

export function authHeaders(target: ServerTarget): Record<string, string> {
  return target.authClass === 'jwt' && target.token ? { Authorization: `Bearer ${target.token}` } : {};
}

/**
 * The credential parts of a request to `url` made as the target's user. Nothing when `url` is not on
 * the target's origin: a credential goes only to the origin of its connection, never to a URL that
 * an answer names (WORKSPACE.md "The local admin"; main enforces the same in the desktop app).
 */
export function credentialParts(target: ServerTarget, url: string): Pick<HttpRequestSpec, 'headers' | 'withCredentials' | 'connectionCredentials'> {
  if (!isSameOrigin(url, target.baseUrl)) return { headers: {}, withCredentials: false };
  return { headers: authHeaders(target), withCredentials: target.authClass === 'session', ...(target.heldCredential ? { connectionCredentials: true } : {}) };
}

export function buildRunRequest(target: ServerTarget, body: string, options: RunOptions): HttpRequestSpec {
  const url = jqlEndpoint(target.baseUrl, options);
  const credential = credentialParts(target, url);
  return {
    connectionId: target.connectionId,
    url,
    method: 'POST',
    ...credential,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...credential.headers },
    body,
  };
}

export function decodeJson(bytes: ArrayBuffer): unknown {
  const text = new TextDecoder().decode(bytes);
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Sends one query the console composed itself and returns the first section's payload or throws. */
export async function callJql(transport: Transport, target: ServerTarget, query: object, timeoutMs = 15_000): Promise<unknown> {
  const result = await transport.send({ ...buildRunRequest(target, JSON.stringify(query), { queryInfoLevel: 0 }), timeoutMs });
  const view = normalizeParsed(decodeJson(result.body), result.status);
  const errors = [...view.errors, ...(view.sections[0]?.errors ?? [])];
  if (errors.length > 0 || result.status >= 400) {
    throw new JqlCallError(result.status, errors.length ? errors : [{ code: 'internal_error', message: `The server answered ${result.status} ${result.statusText}.` }]);
  }
  return view.sections[0]?.payload;
}

export async function fetchHealth(transport: Transport, target: ServerTarget): Promise<Health> {
  const result = await transport.send({
    connectionId: target.connectionId,
    url: `${trimBaseUrl(target.baseUrl)}/healthz`,
    method: 'GET',
    headers: { Accept: 'application/json' },
    withCredentials: false,
    timeoutMs: 10_000,
  });
  const body = decodeJson(result.body) as Partial<Health> | undefined;
  if (result.status !== 200 || typeof body?.version !== 'string') {
    throw new JqlCallError(result.status, [{ code: 'internal_error', message: `${target.baseUrl} does not look like a JQL server (healthz answered ${result.status}).` }]);
  }
  return { status: plainLabel(String(body.status ?? 'ok')), version: plainLabel(body.version) };
}

function userOf(value: unknown): SignedInUser | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.username !== 'string') return null;
  return {
    // A server's label, shown as a label: no bidi or other format characters.
    username: plainLabel(v.username),
    ...(typeof v.id === 'number' ? { id: v.id } : {}),
    ...(Array.isArray(v.roles) ? { roles: v.roles.filter((r): r is string => typeof r === 'string') } : {}),
  };
}

export async function login(transport: Transport, target: ServerTarget, username: string, password: string): Promise<LoginResult> {
  // Without the old credential: the answer's token is the new one.
  const payload = await callJql(transport, { ...target, token: null, heldCredential: false }, {
    __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller', authenticationClass: target.authClass },
    username,
    password,
  });
  const p = (payload ?? {}) as Record<string, unknown>;
  if (typeof p.token !== 'string') {
    throw new JqlCallError(200, [{ code: 'internal_error', message: 'The server signed in without giving a token.' }]);
  }
  return {
    token: p.token,
    expiresAt: typeof p.expires_at === 'string' ? p.expires_at : null,
    user: userOf(p.user) ?? { username },
  };
}

export async function logout(transport: Transport, target: ServerTarget): Promise<void> {
  await callJql(transport, target, { __meta__: { namespace: 'system.User', intent: 'logout', schema: 'controller' } });
}

/** The signed-in user, or null when the credentials are missing, bad or expired. */
export async function verifyAuthentication(transport: Transport, target: ServerTarget): Promise<SignedInUser | null> {
  try {
    const payload = await callJql(transport, target, {
      __meta__: { namespace: 'system.User', intent: 'verifyAuthentication', schema: 'controller' },
    });
    return userOf(payload) ?? userOf((payload as Record<string, unknown> | undefined)?.user);
  } catch (err) {
    if (err instanceof JqlCallError && (err.code === 'unauthenticated' || err.status === 401)) return null;
    throw err;
  }
}

export type DescribeOutcome = { describe: DescribeResult } | { describe: null; reason: string };

/** A server without `system.Schema.describe` (or that refuses it) gets plain JSON editing, with the reason. */
export async function fetchDescribe(transport: Transport, target: ServerTarget): Promise<DescribeOutcome> {
  try {
    const payload = await callJql(transport, target, {
      __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' },
    });
    const d = payload as Partial<DescribeResult> | undefined;
    if (!d || typeof d.apps !== 'object' || d.apps === null) {
      return { describe: null, reason: 'The server answered describe without apps.' };
    }
    return { describe: d as DescribeResult };
  } catch (err) {
    if (err instanceof JqlCallError) return { describe: null, reason: err.message };
    throw err;
  }
}
