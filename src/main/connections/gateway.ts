/**
 * The one door of every request main makes for the page (`http:request`, `http:upload`, `ws:open`):
 * the connection must be registered, the URL on its origin, the origin reachable (reach-policy), and
 * the credential is main's to add (issue 21.3). With `credentials: 'connection'` main adds the
 * connection's bearer token and uses its cookie jar, and whatever Authorization or Cookie the page
 * wrote is dropped; with `omit` main adds nothing and uses no jar, and a bearer token the page holds
 * itself (a diff identity it signed in) may ride along, to that origin only.
 */
import { httpOrigin } from '../../shared/origin.ts';
import type { ConnectionRegistry, RegisteredConnection } from './connection-registry.ts';
import type { CredentialVault } from './credential-vault.ts';
import { ReachRefusedError, type Reach, type ReachPolicy } from './reach-policy.ts';

export class ConnectionRefusedError extends Error {
  override readonly name = 'ConnectionRefusedError';
}

export interface GatewayInput {
  connectionId: string;
  url: string;
  headers: Record<string, string>;
  credentials: 'connection' | 'omit';
}

export interface PreparedRequest {
  connection: RegisteredConnection;
  url: string;
  headers: Record<string, string>;
  /** Whose cookie jar the request uses: the connection's, or none. */
  jar: string | null;
  reach: Reach;
}

/** Headers only main writes: credentials and the target. */
const MAIN_ONLY = /^(authorization|proxy-authorization|cookie|host)$/i;

export class ConnectionGateway {
  private readonly deps: { registry: Pick<ConnectionRegistry, 'get'>; vault: Pick<CredentialVault, 'bearerFor'>; reach: Pick<ReachPolicy, 'check'> };

  constructor(deps: ConnectionGateway['deps']) {
    this.deps = deps;
  }

  /** The registered connection for a request to `url`, or a refusal (checked before anything is sent). */
  connectionFor(connectionId: string, url: string): RegisteredConnection {
    const connection = this.deps.registry.get(connectionId);
    if (!connection) throw new ConnectionRefusedError(`Refused: main knows no connection "${connectionId}"; it sends requests only for the console's connections.`);
    if (httpOrigin(url) !== connection.origin) {
      throw new ConnectionRefusedError(`Refused: ${new URL(url).origin} is not the origin of this connection (${connection.origin}); the console sends a connection's requests there only.`);
    }
    return connection;
  }

  async prepare(input: GatewayInput): Promise<PreparedRequest> {
    const connection = this.connectionFor(input.connectionId, input.url);
    const reach = await this.deps.reach.check(connection).catch((error: Error) => {
      if (error instanceof ReachRefusedError) throw error;
      // A name that does not resolve, and the like: worded like any other unreachable server.
      throw new Error(`Could not reach ${connection.origin} (${error.message}).`);
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.headers)) {
      if (!MAIN_ONLY.test(name) || (input.credentials === 'omit' && /^authorization$/i.test(name))) headers[name] = value;
    }
    if (input.credentials === 'omit') return { connection, url: input.url, headers, jar: null, reach };
    if (connection.authClass === 'jwt') {
      const token = await this.deps.vault.bearerFor(connection.id);
      if (token) headers.Authorization = `Bearer ${token}`;
    }
    return { connection, url: input.url, headers, jar: connection.id, reach };
  }
}
