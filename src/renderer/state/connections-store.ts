/**
 * The connections: the embedded one (the server this console came with, signed in as the local
 * admin), any number of remote ones, and local copies made by "Reproduce locally" (each served by
 * a server the console's own server or main started, signed in as that copy's local admin by
 * whoever started it, never by this page; they last as long as that server, so they are not kept
 * across restarts). Each has a deployment kind (local, development, staging,
 * production) and a read-only switch (state/safety). Names, URLs, kinds and the signed-in user's
 * name are kept in localStorage; tokens only in the SecretStore. In the desktop app main holds every
 * token (the local admin's included) and this page none: it tells main about each connection (the
 * registry port) before its first request, and hands a token it was just given to main to keep.
 * In a browser tab the tokens are in this page's memory.
 */
import type { ConnectionSpec } from '../../shared/bridge.ts';
import type { AuthenticationClass } from '../../shared/protocol.ts';
import type { ServerTarget, SignedInUser } from '../transport/jql-client.ts';
import { ExternalStore, newId, readJson, writeJson, type KeyValueStorage } from './external-store.ts';
import { DEFAULT_REMOTE_KIND, defaultReadOnly, isDeploymentKind, type DeploymentKind } from './safety/connection-kinds.ts';
import type { ConnectionRegistryPort } from './platform.ts';
import type { SecretStore } from './secret-store.ts';

export const EMBEDDED_ID = 'embedded';
const STORAGE_KEY = 'jql.connections.v1';

export interface Connection {
  id: string;
  kind: 'embedded' | 'remote' | 'local';
  name: string;
  baseUrl: string;
  authClass: AuthenticationClass;
  /** Who the stored token belongs to, as the server said at sign-in. */
  user: SignedInUser | null;
  signedIn: boolean;
  /** What it points at; shown as a colour and a word wherever the connection is used. */
  deployment: DeploymentKind;
  /** Refuse mutating requests (unless run once anyway). */
  readOnly: boolean;
  /** Embedded only: signed in as someone other than the local admin, who can be brought back. */
  canRestoreLocalAdmin?: boolean;
  /** Bytes of an answer the console reads before it stops (main, or the browser transport); 64 MiB when absent. */
  answerLimit?: number;
}

export interface ConnectionDraft {
  name: string;
  baseUrl: string;
  authClass: AuthenticationClass;
  deployment?: DeploymentKind;
  readOnly?: boolean;
  answerLimit?: number;
}

export interface ConnectionsState {
  connections: Connection[];
  /** Embedded server not known yet (browser mode reading its config, Electron starting it). */
  embeddedPending: boolean;
  embeddedError: string | null;
}

interface Persisted {
  connections: Array<Pick<Connection, 'id' | 'name' | 'baseUrl' | 'authClass' | 'user' | 'deployment' | 'readOnly' | 'answerLimit'>>;
  /** The embedded connection's read-only switch and answer limit (the rest of it comes from the server). */
  embedded?: { readOnly: boolean; answerLimit?: number };
}

/** A remote connection saved without a kind (an older version) is production, read-only: the safe guess. */
function remoteKind(c: Partial<Connection>): { deployment: DeploymentKind; readOnly: boolean } {
  const deployment = isDeploymentKind(c.deployment) && c.deployment !== 'local' ? c.deployment : DEFAULT_REMOTE_KIND;
  return { deployment, readOnly: typeof c.readOnly === 'boolean' ? c.readOnly : defaultReadOnly(deployment) };
}

const tokenKey = (id: string) => `token:${id}`;

/** What main needs to know of a connection. */
function specOf(c: Pick<Connection, 'id' | 'baseUrl' | 'authClass' | 'answerLimit'>): ConnectionSpec {
  return { id: c.id, baseUrl: c.baseUrl, authClass: c.authClass, ...(c.answerLimit ? { answerLimit: c.answerLimit } : {}) };
}

export class ConnectionsStore extends ExternalStore<ConnectionsState> {
  /** Tokens held by this page (browser mode only). */
  private tokens = new Map<string, string>();
  private storage: KeyValueStorage;
  private secrets: SecretStore;
  private readonly localIds = new Set<string>();
  private registry: ConnectionRegistryPort | null;
  /**
   * The local admin: a token this page holds (older servers), or one held outside the page (main's in
   * the desktop app, the HttpOnly launch cookie in browser mode: `token` null), or none.
   */
  private localAdmin: { token: string | null } | null = null;
  private embeddedReadOnly: boolean;
  private embeddedAnswerLimit: number | undefined;
  private readonly onSaveError: (message: string) => void;

  constructor(storage: KeyValueStorage, secrets: SecretStore, options: { onSaveError?: (message: string) => void; registry?: ConnectionRegistryPort } = {}) {
    const saved = readJson<Persisted>(storage, STORAGE_KEY);
    const remotes: Connection[] = (saved?.connections ?? [])
      .filter((c) => typeof c?.id === 'string' && typeof c.baseUrl === 'string')
      .map((c) => ({ ...c, kind: 'remote', signedIn: false, user: c.user ?? null, authClass: c.authClass === 'session' ? 'session' : 'jwt', ...remoteKind(c) }));
    super({ connections: remotes, embeddedPending: true, embeddedError: null });
    this.storage = storage;
    this.secrets = secrets;
    this.embeddedReadOnly = saved?.embedded?.readOnly === true;
    this.embeddedAnswerLimit = typeof saved?.embedded?.answerLimit === 'number' ? saved.embedded.answerLimit : undefined;
    this.onSaveError = options.onSaveError ?? (() => {});
    this.registry = options.registry ?? null;
    for (const c of remotes) this.registry?.register(specOf(c));
  }

  /** True where main holds the tokens (the desktop app): this page never has one. */
  private get mainHolds(): boolean {
    return this.secrets.holder === 'main';
  }

  /** Which remote connections have a stored token (async: in Electron main answers), and in browser mode the tokens. */
  async loadSecrets(): Promise<void> {
    for (const c of this.getSnapshot().connections) {
      if (c.kind !== 'remote') continue;
      const stored = await this.secrets.has(tokenKey(c.id)).catch(() => false);
      if (!stored) continue;
      if (!this.mainHolds) {
        const token = await this.secrets.get(tokenKey(c.id)).catch(() => null);
        if (!token) continue;
        this.tokens.set(c.id, token);
      }
      this.patch(c.id, { signedIn: true });
    }
  }

  get(id: string): Connection | undefined {
    return this.getSnapshot().connections.find((c) => c.id === id);
  }

  target(id: string): ServerTarget | null {
    const c = this.get(id);
    if (!c) return null;
    const token = this.tokens.get(c.id) ?? null;
    // Browser mode's local admin: the page's HttpOnly cookie goes with same-origin requests, and only
    // while no other user's token overrides it ("Sign in as…"). A local copy is a path of the
    // console's own server, which signs the requests the cookie's holder sends there.
    const cookieAdmin = !this.mainHolds && c.signedIn && token === null && (c.kind === 'local' || (c.id === EMBEDDED_ID && this.localAdmin !== null && this.localAdmin.token === null));
    // The console's server lets only its local admin reach a copy: the cookie goes along while the
    // copy shows signed in, as its admin or (with the token saying so) as one of its users.
    const gateCookie = !this.mainHolds && c.signedIn && c.kind === 'local';
    return {
      connectionId: c.id,
      baseUrl: c.baseUrl,
      authClass: c.authClass,
      token,
      // Main signs the request in only while the page shows the connection signed in.
      ...((this.mainHolds && c.signedIn) || cookieAdmin ? { heldCredential: true } : {}),
      ...(gateCookie ? { gateCookie: true } : {}),
    };
  }

  /**
   * The embedded connection, first in the list. Signed in as the local admin when the server has one:
   * main's credential in the desktop app (the page gets none), or in browser mode the page's own
   * HttpOnly cookie (or, from an older server, a token the page was given). Never stored.
   */
  setEmbedded(baseUrl: string, access: { localAdmin: boolean; token?: string | null }): void {
    this.localAdmin = access.localAdmin || access.token ? { token: access.token ?? null } : null;
    if (access.token) this.tokens.set(EMBEDDED_ID, access.token);
    else this.tokens.delete(EMBEDDED_ID);
    const embedded: Connection = {
      id: EMBEDDED_ID,
      kind: 'embedded',
      name: 'Embedded server',
      baseUrl,
      authClass: 'jwt',
      user: this.localAdmin ? { username: 'local admin' } : null,
      signedIn: this.localAdmin !== null,
      deployment: 'local',
      readOnly: this.embeddedReadOnly,
      ...(this.embeddedAnswerLimit ? { answerLimit: this.embeddedAnswerLimit } : {}),
    };
    if (this.embeddedAnswerLimit) this.registry?.register(specOf(embedded));
    const others = this.getSnapshot().connections.filter((c) => c.id !== EMBEDDED_ID);
    this.setState({ connections: [embedded, ...others], embeddedPending: false, embeddedError: null });
  }

  setEmbeddedPending(): void {
    this.setState({ ...this.getSnapshot(), embeddedPending: true, embeddedError: null });
  }

  setEmbeddedError(message: string): void {
    this.setState({ ...this.getSnapshot(), embeddedPending: false, embeddedError: message });
  }

  /**
   * A copy made by "Reproduce locally", under the connection id its holder (main, or the console's
   * server) knows it by: the page gets no credential for it (docs/protocol.md "The local admin").
   */
  addLocal(copy: { name: string; baseUrl: string; connectionId: string }): string {
    const id = copy.connectionId;
    if (this.get(id)) return id;
    this.localIds.add(id);
    const connection: Connection = {
      id,
      kind: 'local',
      name: copy.name,
      baseUrl: copy.baseUrl,
      authClass: 'jwt',
      user: { username: 'local admin' },
      signedIn: true,
      deployment: 'local',
      readOnly: false,
    };
    this.setState({ ...this.getSnapshot(), connections: [...this.getSnapshot().connections, connection] });
    return id;
  }

  add(draft: ConnectionDraft): string {
    const id = newId('conn');
    const connection: Connection = { id, kind: 'remote', ...draft, ...remoteKind(draft), user: null, signedIn: false };
    // Main first: a request for the new connection may follow at once.
    this.registry?.register(specOf(connection));
    this.setState({ ...this.getSnapshot(), connections: [...this.getSnapshot().connections, connection] });
    this.persist();
    return id;
  }

  /** The desktop app's answer limit for one connection (the embedded one included); undefined: main's default. */
  setAnswerLimit(id: string, answerLimit: number | undefined): void {
    const c = this.get(id);
    if (!c) return;
    if (id === EMBEDDED_ID) this.embeddedAnswerLimit = answerLimit;
    const next = { ...c, answerLimit };
    if (answerLimit === undefined) delete next.answerLimit;
    this.registry?.register(specOf(next));
    this.patch(id, next);
    this.persist();
  }

  /** Changing the URL or the authentication class signs out: the old token was for another server. */
  async update(id: string, draft: ConnectionDraft): Promise<void> {
    const c = this.get(id);
    if (!c || c.kind !== 'remote') return;
    const changedServer = c.baseUrl !== draft.baseUrl || c.authClass !== draft.authClass;
    // Main forgets the token and cookies itself when the origin or the class changed.
    this.registry?.register(specOf({ ...c, ...draft }));
    this.patch(id, { ...draft, ...remoteKind({ deployment: draft.deployment ?? c.deployment, readOnly: draft.readOnly ?? c.readOnly }), ...(changedServer ? { user: null, signedIn: false } : {}) });
    if (changedServer) await this.forgetToken(id);
    this.persist();
  }

  async remove(id: string): Promise<void> {
    if (id === EMBEDDED_ID) return;
    this.setState({ ...this.getSnapshot(), connections: this.getSnapshot().connections.filter((c) => c.id !== id) });
    await this.forgetToken(id);
    this.registry?.forget(id);
    this.persist();
  }

  /** Read-only mode on or off, for any connection (the embedded one included). */
  setReadOnly(id: string, readOnly: boolean): void {
    if (!this.get(id)) return;
    if (id === EMBEDDED_ID) this.embeddedReadOnly = readOnly;
    this.patch(id, { readOnly });
    this.persist();
  }

  /** After "Sign in as…" another user on the embedded connection: back to the local admin. */
  async restoreLocalAdmin(): Promise<void> {
    if (!this.localAdmin) return;
    if (this.localAdmin.token) this.tokens.set(EMBEDDED_ID, this.localAdmin.token);
    else this.tokens.delete(EMBEDDED_ID);
    // Main signs in as the local admin again once the other user's token is gone.
    if (this.mainHolds) await this.secrets.delete(tokenKey(EMBEDDED_ID)).catch(() => undefined);
    this.patch(EMBEDDED_ID, { user: { username: 'local admin' }, signedIn: true, canRestoreLocalAdmin: false });
  }

  /** `token` was just given by the server: in the desktop app it goes to main and this page keeps no copy. */
  async signIn(id: string, token: string, user: SignedInUser): Promise<void> {
    if (this.mainHolds) await this.secrets.set(tokenKey(id), token);
    else this.tokens.set(id, token);
    this.patch(id, { user, signedIn: true, ...(id === EMBEDDED_ID ? { canRestoreLocalAdmin: this.localAdmin !== null } : {}) });
    if (!this.mainHolds && id !== EMBEDDED_ID && !this.localIds.has(id)) await this.secrets.set(tokenKey(id), token);
    this.persist();
  }

  async signOut(id: string): Promise<void> {
    this.patch(id, { user: null, signedIn: false, ...(id === EMBEDDED_ID ? { canRestoreLocalAdmin: this.localAdmin !== null } : {}) });
    await this.forgetToken(id);
    this.persist();
  }

  /** The server refused the token (expired, revoked): keep the connection, drop the token. */
  async markSignedOut(id: string): Promise<void> {
    if (this.get(id)?.signedIn) await this.signOut(id);
  }

  private async forgetToken(id: string): Promise<void> {
    this.tokens.delete(id);
    // Local copies' tokens live in memory only. The embedded one in main: the other user's token
    // goes; while signed out no request carries anything (target()).
    if (this.localIds.has(id)) return;
    if (id !== EMBEDDED_ID || this.mainHolds) await this.secrets.delete(tokenKey(id)).catch(() => undefined);
  }

  private patch(id: string, patch: Partial<Connection>): void {
    const state = this.getSnapshot();
    this.setState({ ...state, connections: state.connections.map((c) => (c.id === id ? { ...c, ...patch } : c)) });
  }

  private persist(): void {
    const connections = this.getSnapshot()
      .connections.filter((c) => c.kind === 'remote')
      .map(({ id, name, baseUrl, authClass, user, deployment, readOnly, answerLimit }) => ({ id, name, baseUrl, authClass, user, deployment, readOnly, ...(answerLimit ? { answerLimit } : {}) }));
    const embedded = { readOnly: this.embeddedReadOnly, ...(this.embeddedAnswerLimit ? { answerLimit: this.embeddedAnswerLimit } : {}) };
    const error = writeJson(this.storage, STORAGE_KEY, { connections, embedded } satisfies Persisted);
    if (error) this.onSaveError(`Not saved: the list of connections (${error.message}). It holds until this window closes.`);
  }
}
