/**
 * The JQL calls the console makes on its own behalf (health, sign-in, describe) and the request a
 * user's query becomes. Framework-free: it talks through a Transport and is tested with a fake one.
 */
import { isSameOrigin } from '../../shared/origin.ts';
import type { AuthenticationClass, DescribeResult, JqlError } from '../../shared/protocol.ts';
import { appDescribeWorker, parseDescribeBody, parseResponseBody, type DescribeParse, type WorkerLike } from '../response/parse-response.ts';
import { fetchDescribeInWorker } from '../response/run-in-worker.ts';
import type { ResultView } from '../response/result-view.ts';
import { readHealth, readLogin, readUser, type Health, type SignedInUser } from '../response/schema/account-schema.ts';
import type { Misfit } from '../response/schema/lenient.ts';
import type { HttpRequestSpec, HttpResult, Transport } from './transport.ts';

export type { Health, SignedInUser };

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
  /**
   * Browser mode's local copies sit behind the console's own server, which lets only its local admin
   * through: the admin cookie goes with every request there, even one made as a user of the copy
   * (then the token says who) or a login. It names nobody to the copy by itself.
   */
  gateCookie?: boolean;
}

/** Whether requests made as this target carry a user's credential, wherever it is held. */
export function hasCredential(target: ServerTarget): boolean {
  return target.token !== null || target.heldCredential === true;
}

export interface RunOptions {
  /** docs/protocol.md "Diagnostics": 0 asks for no diagnostics. */
  queryInfoLevel: 0 | 1 | 2;
  flatEnvelope?: boolean;
}

export interface LoginResult {
  token: string;
  expiresAt: string | null;
  user: SignedInUser;
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
 * an answer names (docs/protocol.md "The local admin"; main enforces the same in the desktop app).
 */
export function credentialParts(target: ServerTarget, url: string): Pick<HttpRequestSpec, 'headers' | 'withCredentials' | 'connectionCredentials'> {
  if (!isSameOrigin(url, target.baseUrl)) return { headers: {}, withCredentials: false };
  return { headers: authHeaders(target), withCredentials: target.authClass === 'session', ...(target.heldCredential || target.gateCookie ? { connectionCredentials: true } : {}) };
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

/** The first section's payload of an answer, or the JqlCallError it stands for. */
function payloadOrThrow(result: Pick<HttpResult, 'status' | 'statusText'>, view: ResultView): unknown {
  const errors = [...view.errors, ...(view.sections[0]?.errors ?? [])];
  // Errors past the boundary's cap are counted, not read: they fail the call all the same.
  const unread = view.errorsUnread + (view.sections[0]?.errorsUnread ?? 0);
  if (errors.length > 0 || unread > 0 || result.status >= 400 || view.parseError) {
    const why = view.parseError ? `The server answered ${result.status}, and ${view.parseError.charAt(0).toLowerCase()}${view.parseError.slice(1)}` : `The server answered ${result.status} ${result.statusText}.`;
    throw new JqlCallError(result.status, errors.length ? errors : [{ code: 'internal_error', message: why }]);
  }
  return view.sections[0]?.payload;
}

function consoleCall(target: ServerTarget, query: object, timeoutMs: number): HttpRequestSpec {
  return { ...buildRunRequest(target, JSON.stringify(query), { queryInfoLevel: 0 }), timeoutMs };
}

/** Sends one query the console composed itself and returns the first section's payload or throws. */
export async function callJql(transport: Transport, target: ServerTarget, query: object, timeoutMs = 15_000): Promise<unknown> {
  const result = await transport.send(consoleCall(target, query, timeoutMs));
  return payloadOrThrow(result, await parseResponseBody(result.body, result.status, {}));
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
  const health = result.status === 200 ? readHealth(decodeJson(result.body)) : null;
  if (!health) {
    throw new JqlCallError(result.status, [{ code: 'internal_error', message: `${target.baseUrl} does not look like a JQL server (healthz answered ${result.status}${result.status === 200 ? ' without a version' : ''}).` }]);
  }
  return health;
}

export async function login(transport: Transport, target: ServerTarget, username: string, password: string): Promise<LoginResult> {
  // Without the old credential: the answer's token is the new one.
  const payload = await callJql(transport, { ...target, token: null, heldCredential: false }, {
    __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller', authenticationClass: target.authClass },
    username,
    password,
  });
  const { value } = readLogin(payload);
  if (!value) {
    throw new JqlCallError(200, [{ code: 'internal_error', message: 'The server signed in without giving a token.' }]);
  }
  return { token: value.token, expiresAt: value.expiresAt, user: value.user ?? { username } };
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
    return readUser(payload);
  } catch (err) {
    if (err instanceof JqlCallError && (err.code === 'unauthenticated' || err.status === 401)) return null;
    throw err;
  }
}

export type DescribeOutcome =
  | { describe: DescribeResult; misfits: Misfit[] }
  | { describe: null; reason: string };

/**
 * A server without `system.Schema.describe` (or that refuses it, or answers one the console cannot
 * read) gets plain JSON editing, with the reason. A describe with parts that do not fit keeps the
 * rest and lists them. A large describe is read off the main thread.
 */
/**
 * Reads the describe of `target`. In browser mode the describes' worker sends the request and reads
 * the answer itself (`getWorker`; tests pass a stand-in), so not one byte of a 19 MB describe is read
 * on the window's thread (issue 31, huge-describe); elsewhere (the desktop app's bridge) the bytes go
 * to a worker without a copy.
 */
export async function fetchDescribe(transport: Transport, target: ServerTarget, getWorker: () => WorkerLike | null = appDescribeWorker): Promise<DescribeOutcome> {
  const request = consoleCall(target, { __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } }, 60_000);
  const worker = transport.forWorker ? getWorker() : null;
  const { view, describe, ...result } = worker && transport.forWorker ? await fetchDescribeInWorker(worker, transport.forWorker(request)) : await readDescribe(transport, request, getWorker);
  try {
    payloadOrThrow(result, view);
  } catch (err) {
    if (err instanceof JqlCallError) return { describe: null, reason: err.message };
    throw err;
  }
  if (!describe?.describe) {
    const why = describe?.misfits[0]?.sentence ?? 'The server answered describe without apps.';
    return { describe: null, reason: `The server's describe cannot be read: ${why.charAt(0).toLowerCase()}${why.slice(1)}` };
  }
  return { describe: describe.describe, misfits: describe.misfits };
}

/** A describe the transport reads: nothing keeps its bytes once read, they go to a worker without a copy. */
async function readDescribe(transport: Transport, request: HttpRequestSpec, getWorker: () => WorkerLike | null): Promise<Pick<HttpResult, 'status' | 'statusText'> & DescribeParse> {
  const { body, status, statusText } = await transport.send(request);
  return { status, statusText, ...(await parseDescribeBody(body, status, { handOver: true, getWorker })) };
}

/**
 * Applies or cancels the save a `serve --watch` server holds back (docs/workspace.md "Changing a
 * workspace while it runs"), named by the digest its `/healthz` showed: the server answers 409 when
 * the file changed since, so what is applied is always what the person saw.
 */
export async function settleWorkspacePreview(transport: Transport, target: ServerTarget, verb: 'apply' | 'cancel', digest: string): Promise<void> {
  const url = `${trimBaseUrl(target.baseUrl)}/workspace/${verb}`;
  const credential = credentialParts(target, url);
  const result = await transport.send({
    connectionId: target.connectionId,
    url,
    method: 'POST',
    ...credential,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...credential.headers },
    body: JSON.stringify({ digest }),
    timeoutMs: 15_000,
  });
  if (result.status === 202) return;
  payloadOrThrow(result, await parseResponseBody(result.body, result.status, {}));
  throw new JqlCallError(result.status, [{ code: 'internal_error', message: `The server answered ${result.status} ${result.statusText}.` }]);
}
