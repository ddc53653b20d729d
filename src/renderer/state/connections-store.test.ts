import { describe, expect, it } from 'vitest';
import { ConnectionsStore, EMBEDDED_ID } from './connections-store.ts';
import { memoryStorage } from './external-store.ts';
import { createMemorySecretStore } from './secret-store.ts';

const draft = { name: 'Staging', baseUrl: 'https://staging.example/api', authClass: 'jwt' as const };

describe('ConnectionsStore', () => {
  it('puts the embedded connection first, signed in with the local admin token', () => {
    const store = new ConnectionsStore(memoryStorage(), createMemorySecretStore());
    store.add(draft);
    store.setEmbedded('http://127.0.0.1:5000', 'admin-token');
    const [first] = store.getSnapshot().connections;
    expect(first).toMatchObject({ id: EMBEDDED_ID, kind: 'embedded', signedIn: true });
    expect(store.target(EMBEDDED_ID)).toEqual({ connectionId: EMBEDDED_ID, baseUrl: 'http://127.0.0.1:5000', authClass: 'jwt', token: 'admin-token' });
    expect(store.getSnapshot().embeddedPending).toBe(false);
  });

  it('keeps tokens out of localStorage and in the secret store', async () => {
    const storage = memoryStorage();
    const secrets = createMemorySecretStore();
    const store = new ConnectionsStore(storage, secrets);
    store.setEmbedded('http://127.0.0.1:5000', 'admin-token');
    const id = store.add(draft);
    await store.signIn(id, 'remote-token', { username: 'agent' });
    const persisted = [...storage.data.values()].join('');
    expect(persisted).not.toContain('remote-token');
    expect(persisted).not.toContain('admin-token');
    expect(persisted).toContain('agent');
    expect(await secrets.get(`token:${id}`)).toBe('remote-token');
    expect(await secrets.get(`token:${EMBEDDED_ID}`)).toBeNull();

    // A restart reads the connection back, and its token from the secret store.
    const again = new ConnectionsStore(storage, secrets);
    expect(again.get(id)).toMatchObject({ name: 'Staging', signedIn: false, user: { username: 'agent' } });
    await again.loadSecrets();
    expect(again.get(id)?.signedIn).toBe(true);
    expect(again.target(id)?.token).toBe('remote-token');
  });

  it('signs out when the server of a connection changes', async () => {
    const secrets = createMemorySecretStore();
    const store = new ConnectionsStore(memoryStorage(), secrets);
    const id = store.add(draft);
    await store.signIn(id, 't', { username: 'a' });
    await store.update(id, { ...draft, name: 'Renamed' });
    expect(store.get(id)).toMatchObject({ name: 'Renamed', signedIn: true });
    await store.update(id, { ...draft, baseUrl: 'https://other.example' });
    expect(store.get(id)).toMatchObject({ signedIn: false, user: null });
    expect(await secrets.get(`token:${id}`)).toBeNull();
  });

  it('removes a connection with its token, never the embedded one', async () => {
    const secrets = createMemorySecretStore();
    const store = new ConnectionsStore(memoryStorage(), secrets);
    store.setEmbedded('http://e', undefined);
    const id = store.add(draft);
    await store.signIn(id, 't', { username: 'a' });
    await store.remove(id);
    await store.remove(EMBEDDED_ID);
    expect(store.getSnapshot().connections.map((c) => c.id)).toEqual([EMBEDDED_ID]);
    expect(await secrets.get(`token:${id}`)).toBeNull();
  });

  it('notifies subscribers with a new snapshot', () => {
    const store = new ConnectionsStore(memoryStorage(), createMemorySecretStore());
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.getSnapshot().connections.length));
    store.add(draft);
    store.add(draft);
    expect(seen).toEqual([1, 2]);
  });

  it('ignores a corrupt saved list', () => {
    const storage = memoryStorage();
    storage.setItem('jql.connections.v1', '{not json');
    expect(new ConnectionsStore(storage, createMemorySecretStore()).getSnapshot().connections).toEqual([]);
  });
});
