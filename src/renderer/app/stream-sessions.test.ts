import { describe, expect, it } from 'vitest';
import { StreamSession } from '../features/stream-inspector/index.ts';
import { ConnectionsStore, EMBEDDED_ID } from '../state/connections-store.ts';
import { memoryStorage } from '../state/external-store.ts';
import { createMemorySecretStore } from '../state/secret-store.ts';
import { StreamSessions } from './stream-sessions.ts';

function setup() {
  const connections = new ConnectionsStore(memoryStorage(), createMemorySecretStore());
  connections.setEmbedded('http://127.0.0.1:9', { localAdmin: true, token: 'tok' });
  const made: string[] = [];
  const disposed: string[] = [];
  const sessions = new StreamSessions(connections, (id) => {
    made.push(id);
    const session = new StreamSession({ connect: () => new Promise(() => {}) });
    const dispose = session.dispose.bind(session);
    session.dispose = () => {
      disposed.push(id);
      dispose();
    };
    return session;
  });
  return { connections, sessions, made, disposed };
}

describe('StreamSessions', () => {
  it('keeps one session per connection across lookups', () => {
    const { sessions, made, connections } = setup();
    const remote = connections.add({ name: 'Remote', baseUrl: 'https://jql.example', authClass: 'jwt' });
    const a = sessions.get(EMBEDDED_ID);
    expect(sessions.get(EMBEDDED_ID)).toBe(a);
    expect(sessions.get(remote)).not.toBe(a);
    expect(made).toEqual([EMBEDDED_ID, remote]);
    expect(sessions.get('unknown')).toBeNull();
  });

  it('disposes the session of a deleted connection, or one pointed at another server', async () => {
    const { sessions, connections, disposed } = setup();
    const remote = connections.add({ name: 'Remote', baseUrl: 'https://jql.example', authClass: 'jwt' });
    const other = connections.add({ name: 'Other', baseUrl: 'https://other.example', authClass: 'jwt' });
    const first = sessions.get(remote);
    sessions.get(other);
    await connections.update(remote, { name: 'Remote', baseUrl: 'https://moved.example', authClass: 'jwt' });
    expect(disposed).toEqual([remote]);
    expect(sessions.get(remote)).not.toBe(first);
    await connections.remove(other);
    expect(disposed).toEqual([remote, other]);
    // Renaming keeps the log.
    const kept = sessions.get(remote);
    await connections.update(remote, { name: 'Renamed', baseUrl: 'https://moved.example', authClass: 'jwt' });
    expect(sessions.get(remote)).toBe(kept);
  });
});
