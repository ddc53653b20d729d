/**
 * One StreamSession per connection for the whole app run, so a stream's log and socket survive
 * switching views and connections. A session is made on first use and disposed when its connection
 * is deleted or pointed at another server (its log would be about the old one).
 */
import type { StreamSession } from '../features/stream-inspector/index.ts';
import type { ConnectionsStore } from '../state/connections-store.ts';

interface Entry {
  session: StreamSession;
  /** baseUrl + authClass when it was made. */
  address: string;
}

const addressOf = (c: { baseUrl: string; authClass: string }) => `${c.baseUrl}|${c.authClass}`;

export class StreamSessions {
  private readonly entries = new Map<string, Entry>();
  private readonly connections: ConnectionsStore;
  private readonly make: (connectionId: string) => StreamSession;

  constructor(connections: ConnectionsStore, make: (connectionId: string) => StreamSession) {
    this.connections = connections;
    this.make = make;
    connections.subscribe(() => this.prune());
  }

  /** The connection's session, made on first use; null for an unknown connection. */
  get(connectionId: string): StreamSession | null {
    const connection = this.connections.get(connectionId);
    if (!connection) return null;
    const existing = this.entries.get(connectionId);
    if (existing && existing.address === addressOf(connection)) return existing.session;
    existing?.session.dispose();
    const session = this.make(connectionId);
    this.entries.set(connectionId, { session, address: addressOf(connection) });
    return session;
  }

  /** Connection ids whose session has an open socket. */
  live(): string[] {
    return [...this.entries].filter(([, e]) => e.session.getSnapshot().connection === 'open').map(([id]) => id);
  }

  private prune(): void {
    for (const [id, entry] of this.entries) {
      const connection = this.connections.get(id);
      if (!connection || addressOf(connection) !== entry.address) {
        entry.session.dispose();
        this.entries.delete(id);
      }
    }
  }
}
