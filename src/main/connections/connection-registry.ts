/**
 * Main's registry of connections (issue 21.3): id, origin, authentication class and answer limit.
 * The page tells main about its connections; main decides where a request for one may go (its
 * origin only) and which credential rides along. The embedded connection and the local copies that
 * "Reproduce locally" made are main's own: the page can change their answer limit and nothing else. Kept in a small file under userData, so that after a
 * restart a connection whose origin the page names differently loses its token and cookies instead
 * of carrying them to the new origin.
 */
import { DEFAULT_ANSWER_LIMIT, EMBEDDED_CONNECTION_ID, MAX_ANSWER_LIMIT, MIN_ANSWER_LIMIT, type ConnectionSpec } from '../../shared/bridge.ts';
import { httpOrigin } from '../../shared/origin.ts';
import type { AuthenticationClass } from '../../shared/protocol.ts';
import { ProxyRequestError, validateConnectionId, validateUrl } from '../http-proxy.ts';
import type { TextFile } from '../text-file.ts';

export interface RegisteredConnection {
  id: string;
  /** `local`: a copy main serves (shared/clone.ts); like `embedded`, never saved: it lasts as long as its server. */
  kind: 'embedded' | 'remote' | 'local';
  /** `scheme://host:port`: the only place requests for this connection go. */
  origin: string;
  authClass: AuthenticationClass;
  answerLimit: number;
}

const MAX_CONNECTIONS = 500;

/** A spec from the page, checked (the renderer is not trusted). */
export function validateConnectionSpec(input: unknown): ConnectionSpec {
  if (typeof input !== 'object' || input === null) throw new ProxyRequestError('A connection must be an object.');
  const r = input as Record<string, unknown>;
  const id = validateConnectionId(r.id);
  if (typeof r.baseUrl !== 'string' || r.baseUrl.length > 2048) throw new ProxyRequestError('Invalid connection URL.');
  const baseUrl = validateUrl(r.baseUrl, ['http:', 'https:']).href;
  if (r.authClass !== 'jwt' && r.authClass !== 'session') throw new ProxyRequestError('The authentication class is jwt or session.');
  const spec: ConnectionSpec = { id, baseUrl, authClass: r.authClass };
  if (r.answerLimit !== undefined) spec.answerLimit = answerLimit(r.answerLimit);
  return spec;
}

function answerLimit(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_ANSWER_LIMIT || value > MAX_ANSWER_LIMIT) {
    throw new ProxyRequestError(`The answer limit is a whole number of bytes from ${MIN_ANSWER_LIMIT} to ${MAX_ANSWER_LIMIT}.`);
  }
  return value;
}

export interface RegistryDeps {
  file: TextFile;
  /** The connection's token and cookie jar go: its origin or authentication class changed, or it was removed. */
  forgetCredentials(id: string): Promise<void>;
}

export class ConnectionRegistry {
  private readonly entries = new Map<string, RegisteredConnection>();
  private readonly deps: RegistryDeps;
  private saving: Promise<void> = Promise.resolve();

  constructor(deps: RegistryDeps) {
    this.deps = deps;
  }

  /** Reads the registry of the last run; a damaged file only means the page registers again. */
  async load(): Promise<void> {
    try {
      const parsed = JSON.parse((await this.deps.file.read()) ?? '[]') as unknown;
      if (!Array.isArray(parsed)) return;
      for (const item of parsed) {
        const e = item as Partial<RegisteredConnection>;
        if (typeof e.id !== 'string' || e.id === EMBEDDED_CONNECTION_ID || typeof e.origin !== 'string' || httpOrigin(e.origin) !== e.origin) continue;
        if (e.authClass !== 'jwt' && e.authClass !== 'session') continue;
        const limit = typeof e.answerLimit === 'number' && e.answerLimit >= MIN_ANSWER_LIMIT && e.answerLimit <= MAX_ANSWER_LIMIT ? e.answerLimit : DEFAULT_ANSWER_LIMIT;
        this.entries.set(e.id, { id: e.id, kind: 'remote', origin: e.origin, authClass: e.authClass, answerLimit: limit });
      }
    } catch {
      // Unreadable: start empty.
    }
  }

  get(id: string): RegisteredConnection | undefined {
    return this.entries.get(id);
  }

  /** Main's own: the embedded server at `url` (null while none runs). Its credential lives in the vault. */
  setEmbedded(url: string | null): void {
    const previous = this.entries.get(EMBEDDED_CONNECTION_ID);
    if (url === null) {
      this.entries.delete(EMBEDDED_CONNECTION_ID);
      return;
    }
    const origin = httpOrigin(url);
    if (!origin) throw new Error(`The embedded server's URL is not http: ${url}`);
    this.entries.set(EMBEDDED_CONNECTION_ID, { id: EMBEDDED_CONNECTION_ID, kind: 'embedded', origin, authClass: 'jwt', answerLimit: previous?.answerLimit ?? DEFAULT_ANSWER_LIMIT });
  }

  /** Main's own: a copy made by "Reproduce locally", served at `url`. Its credential lives in the vault. */
  setLocalCopy(id: string, url: string): void {
    const origin = httpOrigin(url);
    if (!origin) throw new Error(`The copy's server URL is not http: ${url}`);
    this.entries.set(id, { id, kind: 'local', origin, authClass: 'jwt', answerLimit: this.entries.get(id)?.answerLimit ?? DEFAULT_ANSWER_LIMIT });
  }

  /**
   * The page's connection, new or changed. The map changes before the first await, so a request the
   * page sends right after registering (IPC keeps the order) already finds it.
   */
  async register(spec: ConnectionSpec): Promise<void> {
    const previous = this.entries.get(spec.id);
    const limit = spec.answerLimit ?? previous?.answerLimit ?? DEFAULT_ANSWER_LIMIT;
    if (spec.id === EMBEDDED_CONNECTION_ID || previous?.kind === 'local') {
      // Where the embedded server and the copies run and how they sign in are main's to say.
      if (previous) this.entries.set(spec.id, { ...previous, answerLimit: limit });
      return;
    }
    if (!previous && this.entries.size >= MAX_CONNECTIONS) throw new ProxyRequestError(`At most ${MAX_CONNECTIONS} connections.`);
    const origin = httpOrigin(spec.baseUrl)!;
    const entry: RegisteredConnection = { id: spec.id, kind: 'remote', origin, authClass: spec.authClass, answerLimit: limit };
    this.entries.set(spec.id, entry);
    const moved = previous !== undefined && (previous.origin !== origin || previous.authClass !== spec.authClass);
    if (moved) await this.deps.forgetCredentials(spec.id);
    if (!previous || moved || previous.answerLimit !== limit) await this.save();
  }

  async forget(id: string): Promise<void> {
    if (id === EMBEDDED_CONNECTION_ID) return;
    this.entries.delete(id);
    await this.deps.forgetCredentials(id);
    await this.save();
  }

  private save(): Promise<void> {
    const remotes = [...this.entries.values()].filter((e) => e.kind === 'remote').map(({ id, origin, authClass, answerLimit }) => ({ id, origin, authClass, answerLimit }));
    // One write at a time, the last state last.
    this.saving = this.saving.then(() => this.deps.file.write(JSON.stringify(remotes)), () => this.deps.file.write(JSON.stringify(remotes)));
    return this.saving;
  }
}
