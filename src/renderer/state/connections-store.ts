/**
 * The connections: the embedded one (the server this console came with, signed in as the local
 * admin), any number of remote ones, and local copies made by "Reproduce locally" (each served by
 * a server the console's own server or main started, signed in as that copy's local admin; they
 * last as long as that server, so they are not kept across restarts). Each has a deployment kind (local, development, staging,
 * production) and a read-only switch (state/safety). Names, URLs, kinds and the signed-in user's
 * name are kept in localStorage; tokens only in the SecretStore, and in memory while the app runs.
 */
import type { AuthenticationClass } from '../../shared/protocol.ts';
import type { ServerTarget, SignedInUser } from '../transport/jql-client.ts';
import { ExternalStore, newId, readJson, writeJson, type KeyValueStorage } from './external-store.ts';
import { DEFAULT_REMOTE_KIND, defaultReadOnly, isDeploymentKind, type DeploymentKind } from './safety/connection-kinds.ts';
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
}

export interface ConnectionDraft {
  name: string;
  baseUrl: string;
  authClass: AuthenticationClass;
  deployment?: DeploymentKind;
  readOnly?: boolean;
}

export interface ConnectionsState {
  connections: Connection[];
  /** Embedded server not known yet (browser mode reading its config, Electron starting it). */
  embeddedPending: boolean;
  embeddedError: string | null;
}

interface Persisted {
  connections: Array<Pick<Connection, 'id' | 'name' | 'baseUrl' | 'authClass' | 'user' | 'deployment' | 'readOnly'>>;
  /** The embedded connection's read-only switch (the rest of it comes from the server). */
  embedded?: { readOnly: boolean };
}

/** A remote connection saved without a kind (an older version) is production, read-only: the safe guess. */
function remoteKind(c: Partial<Connection>): { deployment: DeploymentKind; readOnly: boolean } {
  const deployment = isDeploymentKind(c.deployment) && c.deployment !== 'local' ? c.deployment : DEFAULT_REMOTE_KIND;
  return { deployment, readOnly: typeof c.readOnly === 'boolean' ? c.readOnly : defaultReadOnly(deployment) };
}

const tokenKey = (id: string) => `token:${id}`;

export class ConnectionsStore extends ExternalStore<ConnectionsState> {
  private tokens = new Map<string, string>();
  private storage: KeyValueStorage;
  private secrets: SecretStore;
  private localAdminToken: string | null = null;
  private readonly localIds = new Set<string>();
  /** Browser mode: the page is the local admin through an HttpOnly cookie it cannot read. */
  private ambientLocalAdmin = false;
  private embeddedReadOnly: boolean;
  private readonly onSaveError: (message: string) => void;

  constructor(storage: KeyValueStorage, secrets: SecretStore, options: { onSaveError?: (message: string) => void } = {}) {
    const saved = readJson<Persisted>(storage, STORAGE_KEY);
    const remotes: Connection[] = (saved?.connections ?? [])
      .filter((c) => typeof c?.id === 'string' && typeof c.baseUrl === 'string')
      .map((c) => ({ ...c, kind: 'remote', signedIn: false, user: c.user ?? null, authClass: c.authClass === 'session' ? 'session' : 'jwt', ...remoteKind(c) }));
    super({ connections: remotes, embeddedPending: true, embeddedError: null });
    this.storage = storage;
    this.secrets = secrets;
    this.embeddedReadOnly = saved?.embedded?.readOnly === true;
    this.onSaveError = options.onSaveError ?? (() => {});
  }

  /** Reads the stored tokens of remote connections (async: in Electron they come from main). */
  async loadSecrets(): Promise<void> {
    for (const c of this.getSnapshot().connections) {
      if (c.kind !== 'remote') continue;
      const token = await this.secrets.get(tokenKey(c.id)).catch(() => null);
      if (token) {
        this.tokens.set(c.id, token);
        this.patch(c.id, { signedIn: true });
      }
    }
  }

  get(id: string): Connection | undefined {
    return this.getSnapshot().connections.find((c) => c.id === id);
  }

  target(id: string): ServerTarget | null {
    const c = this.get(id);
    if (!c) return null;
    const token = this.tokens.get(c.id) ?? null;
    const localAdmin = c.id === EMBEDDED_ID && this.ambientLocalAdmin && token === null;
    return { connectionId: c.id, baseUrl: c.baseUrl, authClass: c.authClass, token, ...(localAdmin ? { localAdmin } : {}) };
  }

  /**
   * The embedded connection, first in the list. It is the local admin either through a token that is
   * never stored, or (browser mode, `ambientLocalAdmin`) through the page's HttpOnly cookie, in which
   * case it holds no token at all and a sign-in as another user overrides the cookie with a token.
   */
  setEmbedded(baseUrl: string, localAdminToken: string | undefined, ambientLocalAdmin = false): void {
    this.localAdminToken = localAdminToken ?? null;
    this.ambientLocalAdmin = ambientLocalAdmin && !localAdminToken;
    if (localAdminToken) this.tokens.set(EMBEDDED_ID, localAdminToken);
    else this.tokens.delete(EMBEDDED_ID);
    const embedded: Connection = {
      id: EMBEDDED_ID,
      kind: 'embedded',
      name: 'Embedded server',
      baseUrl,
      authClass: 'jwt',
      user: this.hasLocalAdmin ? { username: 'local admin' } : null,
      signedIn: this.hasLocalAdmin,
      deployment: 'local',
      readOnly: this.embeddedReadOnly,
    };
    const others = this.getSnapshot().connections.filter((c) => c.id !== EMBEDDED_ID);
    this.setState({ connections: [embedded, ...others], embeddedPending: false, embeddedError: null });
  }

  setEmbeddedPending(): void {
    this.setState({ ...this.getSnapshot(), embeddedPending: true, embeddedError: null });
  }

  setEmbeddedError(message: string): void {
    this.setState({ ...this.getSnapshot(), embeddedPending: false, embeddedError: message });
  }

  /** A copy made by "Reproduce locally": its token is in memory only, like the embedded one's. */
  addLocal(copy: { name: string; baseUrl: string; token: string }): string {
    const id = newId('local');
    this.localIds.add(id);
    this.tokens.set(id, copy.token);
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
    this.setState({ ...this.getSnapshot(), connections: [...this.getSnapshot().connections, connection] });
    this.persist();
    return id;
  }

  /** Changing the URL or the authentication class signs out: the old token was for another server. */
  async update(id: string, draft: ConnectionDraft): Promise<void> {
    const c = this.get(id);
    if (!c || c.kind !== 'remote') return;
    const changedServer = c.baseUrl !== draft.baseUrl || c.authClass !== draft.authClass;
    this.patch(id, { ...draft, ...remoteKind({ deployment: draft.deployment ?? c.deployment, readOnly: draft.readOnly ?? c.readOnly }), ...(changedServer ? { user: null, signedIn: false } : {}) });
    if (changedServer) await this.forgetToken(id);
    this.persist();
  }

  async remove(id: string): Promise<void> {
    if (id === EMBEDDED_ID) return;
    this.setState({ ...this.getSnapshot(), connections: this.getSnapshot().connections.filter((c) => c.id !== id) });
    await this.forgetToken(id);
    this.persist();
  }

  /** Read-only mode on or off, for any connection (the embedded one included). */
  setReadOnly(id: string, readOnly: boolean): void {
    if (!this.get(id)) return;
    if (id === EMBEDDED_ID) this.embeddedReadOnly = readOnly;
    this.patch(id, { readOnly });
    this.persist();
  }

  private get hasLocalAdmin(): boolean {
    return this.localAdminToken !== null || this.ambientLocalAdmin;
  }

  /** After "Sign in as…" another user on the embedded connection: back to the local admin. */
  restoreLocalAdmin(): void {
    if (!this.hasLocalAdmin) return;
    if (this.localAdminToken) this.tokens.set(EMBEDDED_ID, this.localAdminToken);
    else this.tokens.delete(EMBEDDED_ID);
    this.patch(EMBEDDED_ID, { user: { username: 'local admin' }, signedIn: true, canRestoreLocalAdmin: false });
  }

  async signIn(id: string, token: string, user: SignedInUser): Promise<void> {
    this.tokens.set(id, token);
    this.patch(id, { user, signedIn: true, ...(id === EMBEDDED_ID ? { canRestoreLocalAdmin: this.hasLocalAdmin } : {}) });
    if (id !== EMBEDDED_ID && !this.localIds.has(id)) await this.secrets.set(tokenKey(id), token);
    this.persist();
  }

  async signOut(id: string): Promise<void> {
    this.patch(id, { user: null, signedIn: false, ...(id === EMBEDDED_ID ? { canRestoreLocalAdmin: this.hasLocalAdmin } : {}) });
    await this.forgetToken(id);
    this.persist();
  }

  /** The server refused the token (expired, revoked): keep the connection, drop the token. */
  async markSignedOut(id: string): Promise<void> {
    if (this.get(id)?.signedIn) await this.signOut(id);
  }

  private async forgetToken(id: string): Promise<void> {
    this.tokens.delete(id);
    // Only remote tokens are stored; the embedded and local ones live in memory.
    if (id !== EMBEDDED_ID && !this.localIds.has(id)) await this.secrets.delete(tokenKey(id)).catch(() => undefined);
  }

  private patch(id: string, patch: Partial<Connection>): void {
    const state = this.getSnapshot();
    this.setState({ ...state, connections: state.connections.map((c) => (c.id === id ? { ...c, ...patch } : c)) });
  }

  private persist(): void {
    const connections = this.getSnapshot()
      .connections.filter((c) => c.kind === 'remote')
      .map(({ id, name, baseUrl, authClass, user, deployment, readOnly }) => ({ id, name, baseUrl, authClass, user, deployment, readOnly }));
    const error = writeJson(this.storage, STORAGE_KEY, { connections, embedded: { readOnly: this.embeddedReadOnly } } satisfies Persisted);
    if (error) this.onSaveError(`Not saved: the list of connections (${error.message}). It holds until this window closes.`);
  }
}
