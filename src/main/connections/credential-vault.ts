/**
 * The connections' bearer tokens, as main holds them (issue 21.3). The page may store, test and
 * delete a secret (`secrets:set|has|delete`) but never read one back; main reads `token:<id>` when
 * it signs a request of connection <id>. The embedded connection's token is the local admin's, which
 * main got from the server it started and which never leaves main (docs/protocol.md "The local admin");
 * a page's sign-in as someone else on it lasts for this run only, and deleting it brings the local
 * admin back. The local admin tokens of the copies main serves ("Reproduce locally") are kept the same
 * way: in memory, from main's clone jobs, for as long as the copy's server runs.
 */
import { EMBEDDED_CONNECTION_ID } from '../../shared/bridge.ts';

/** The store that persists secrets (SecretStore: safeStorage-encrypted, or memory only). */
export interface SecretBackend {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

const TOKEN_PREFIX = 'token:';
export const tokenKey = (connectionId: string) => `${TOKEN_PREFIX}${connectionId}`;
const EMBEDDED_KEY = tokenKey(EMBEDDED_CONNECTION_ID);

export class CredentialVault {
  private localAdmin: string | null = null;
  private embeddedOverride: string | null = null;
  private readonly copies = new Map<string, string>();
  private readonly backend: SecretBackend;

  constructor(backend: SecretBackend) {
    this.backend = backend;
  }

  /** The embedded server's local admin credential (null while none runs); a new server forgets any other sign-in on it. */
  setLocalAdmin(token: string | null): void {
    this.localAdmin = token;
    this.embeddedOverride = null;
  }

  /** The local admin token of a copy main serves as connection `connectionId`. */
  setLocalCopy(connectionId: string, token: string): void {
    this.copies.set(connectionId, token);
  }

  get hasLocalAdmin(): boolean {
    return this.localAdmin !== null;
  }

  async set(key: string, value: string): Promise<void> {
    if (key === EMBEDDED_KEY) this.embeddedOverride = value;
    else await this.backend.set(key, value);
  }

  async has(key: string): Promise<boolean> {
    if (key === EMBEDDED_KEY) return this.embeddedOverride !== null;
    if (this.copyOf(key) !== undefined) return true;
    return (await this.backend.get(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    if (key === EMBEDDED_KEY) this.embeddedOverride = null;
    else if (this.copyOf(key) !== undefined) this.copies.delete(key.slice(TOKEN_PREFIX.length));
    else await this.backend.delete(key);
  }

  /** The bearer token main adds to connection <id>'s requests, or null. */
  async bearerFor(connectionId: string): Promise<string | null> {
    if (connectionId === EMBEDDED_CONNECTION_ID) return this.embeddedOverride ?? this.localAdmin;
    return this.copies.get(connectionId) ?? this.backend.get(tokenKey(connectionId));
  }

  private copyOf(key: string): string | undefined {
    return key.startsWith(TOKEN_PREFIX) ? this.copies.get(key.slice(TOKEN_PREFIX.length)) : undefined;
  }
}
