/**
 * The connections: the embedded one (the server this console came with, signed in as the local
 * admin) and any number of remote ones. Names, URLs and the signed-in user's name are kept in
 * localStorage; tokens only in the SecretStore, and in memory while the app runs.
 */
import type { AuthenticationClass } from '../../shared/protocol.ts';
import type { ServerTarget, SignedInUser } from '../transport/jql-client.ts';
import { ExternalStore, newId, readJson, writeJson, type KeyValueStorage } from './external-store.ts';
import type { SecretStore } from './secret-store.ts';

export const EMBEDDED_ID = 'embedded';
const STORAGE_KEY = 'jql.connections.v1';

export interface Connection {
  id: string;
  kind: 'embedded' | 'remote';
  name: string;
  baseUrl: string;
  authClass: AuthenticationClass;
  /** Who the stored token belongs to, as the server said at sign-in. */
  user: SignedInUser | null;
  signedIn: boolean;
}

export interface ConnectionDraft {
  name: string;
  baseUrl: string;
  authClass: AuthenticationClass;
}

export interface ConnectionsState {
  connections: Connection[];
  /** Embedded server not known yet (browser mode reading its config, Electron starting it). */
  embeddedPending: boolean;
  embeddedError: string | null;
}

interface Persisted {
  connections: Array<Pick<Connection, 'id' | 'name' | 'baseUrl' | 'authClass' | 'user'>>;
}

const tokenKey = (id: string) => `token:${id}`;

export class ConnectionsStore extends ExternalStore<ConnectionsState> {
  private tokens = new Map<string, string>();
  private storage: KeyValueStorage;
  private secrets: SecretStore;

  constructor(storage: KeyValueStorage, secrets: SecretStore) {
    const saved = readJson<Persisted>(storage, STORAGE_KEY);
    const remotes: Connection[] = (saved?.connections ?? [])
      .filter((c) => typeof c?.id === 'string' && typeof c.baseUrl === 'string')
      .map((c) => ({ ...c, kind: 'remote', signedIn: false, user: c.user ?? null, authClass: c.authClass === 'session' ? 'session' : 'jwt' }));
    super({ connections: remotes, embeddedPending: true, embeddedError: null });
    this.storage = storage;
    this.secrets = secrets;
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
    return { connectionId: c.id, baseUrl: c.baseUrl, authClass: c.authClass, token: this.tokens.get(c.id) ?? null };
  }

  /** The embedded connection, first in the list; its token is the local admin's and is never stored. */
  setEmbedded(baseUrl: string, localAdminToken: string | undefined): void {
    if (localAdminToken) this.tokens.set(EMBEDDED_ID, localAdminToken);
    else this.tokens.delete(EMBEDDED_ID);
    const embedded: Connection = {
      id: EMBEDDED_ID,
      kind: 'embedded',
      name: 'Embedded server',
      baseUrl,
      authClass: 'jwt',
      user: localAdminToken ? { username: 'local admin' } : null,
      signedIn: !!localAdminToken,
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

  add(draft: ConnectionDraft): string {
    const id = newId('conn');
    const connection: Connection = { id, kind: 'remote', ...draft, user: null, signedIn: false };
    this.setState({ ...this.getSnapshot(), connections: [...this.getSnapshot().connections, connection] });
    this.persist();
    return id;
  }

  /** Changing the URL or the authentication class signs out: the old token was for another server. */
  async update(id: string, draft: ConnectionDraft): Promise<void> {
    const c = this.get(id);
    if (!c || c.kind !== 'remote') return;
    const changedServer = c.baseUrl !== draft.baseUrl || c.authClass !== draft.authClass;
    this.patch(id, { ...draft, ...(changedServer ? { user: null, signedIn: false } : {}) });
    if (changedServer) await this.forgetToken(id);
    this.persist();
  }

  async remove(id: string): Promise<void> {
    if (id === EMBEDDED_ID) return;
    this.setState({ ...this.getSnapshot(), connections: this.getSnapshot().connections.filter((c) => c.id !== id) });
    await this.forgetToken(id);
    this.persist();
  }

  async signIn(id: string, token: string, user: SignedInUser): Promise<void> {
    this.tokens.set(id, token);
    this.patch(id, { user, signedIn: true });
    if (id !== EMBEDDED_ID) await this.secrets.set(tokenKey(id), token);
    this.persist();
  }

  async signOut(id: string): Promise<void> {
    this.patch(id, { user: null, signedIn: false });
    await this.forgetToken(id);
    this.persist();
  }

  /** The server refused the token (expired, revoked): keep the connection, drop the token. */
  async markSignedOut(id: string): Promise<void> {
    if (this.get(id)?.signedIn) await this.signOut(id);
  }

  private async forgetToken(id: string): Promise<void> {
    this.tokens.delete(id);
    if (id !== EMBEDDED_ID) await this.secrets.delete(tokenKey(id)).catch(() => undefined);
  }

  private patch(id: string, patch: Partial<Connection>): void {
    const state = this.getSnapshot();
    this.setState({ ...state, connections: state.connections.map((c) => (c.id === id ? { ...c, ...patch } : c)) });
  }

  private persist(): void {
    const connections = this.getSnapshot()
      .connections.filter((c) => c.kind === 'remote')
      .map(({ id, name, baseUrl, authClass, user }) => ({ id, name, baseUrl, authClass, user }));
    writeJson(this.storage, STORAGE_KEY, { connections } satisfies Persisted);
  }
}
