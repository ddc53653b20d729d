import { describe, expect, it, vi } from 'vitest';
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

  it('gives each connection a kind: local for the embedded one, production and read-only for a remote one unless told', () => {
    const storage = memoryStorage();
    const store = new ConnectionsStore(storage, createMemorySecretStore());
    store.setEmbedded('http://e', 'admin-token');
    const prod = store.add(draft);
    const dev = store.add({ ...draft, name: 'Dev', deployment: 'development' });
    const stage = store.add({ ...draft, name: 'Stage', deployment: 'staging', readOnly: true });
    expect(store.get(EMBEDDED_ID)).toMatchObject({ deployment: 'local', readOnly: false });
    expect(store.get(prod)).toMatchObject({ deployment: 'production', readOnly: true });
    expect(store.get(dev)).toMatchObject({ deployment: 'development', readOnly: false });
    expect(store.get(stage)).toMatchObject({ deployment: 'staging', readOnly: true });
    store.setReadOnly(prod, false);
    store.setReadOnly(EMBEDDED_ID, true);
    const again = new ConnectionsStore(storage, createMemorySecretStore());
    again.setEmbedded('http://e', 'admin-token');
    expect(again.get(prod)).toMatchObject({ deployment: 'production', readOnly: false });
    expect(again.get(EMBEDDED_ID)).toMatchObject({ readOnly: true });
  });

  it('reads a connection saved by an older version (no kind) as production in read-only mode', () => {
    const storage = memoryStorage();
    storage.setItem('jql.connections.v1', JSON.stringify({ connections: [{ id: 'c1', name: 'Old', baseUrl: 'https://h', authClass: 'jwt', user: null }] }));
    expect(new ConnectionsStore(storage, createMemorySecretStore()).get('c1')).toMatchObject({ deployment: 'production', readOnly: true });
  });

  it('brings the local admin back after signing the embedded connection in as someone else', async () => {
    const store = new ConnectionsStore(memoryStorage(), createMemorySecretStore());
    store.setEmbedded('http://e', 'admin-token');
    expect(store.get(EMBEDDED_ID)?.canRestoreLocalAdmin).toBeFalsy();
    await store.signIn(EMBEDDED_ID, 'agent-token', { username: 'agent' });
    expect(store.get(EMBEDDED_ID)).toMatchObject({ user: { username: 'agent' }, canRestoreLocalAdmin: true });
    expect(store.target(EMBEDDED_ID)?.token).toBe('agent-token');
    store.restoreLocalAdmin();
    expect(store.get(EMBEDDED_ID)).toMatchObject({ user: { username: 'local admin' }, signedIn: true, canRestoreLocalAdmin: false });
    expect(store.target(EMBEDDED_ID)?.token).toBe('admin-token');
  });

  it('is the local admin through the browser-mode cookie with no token, and comes back to it after "Sign in as…"', async () => {
    const store = new ConnectionsStore(memoryStorage(), createMemorySecretStore());
    store.setEmbedded('http://e', undefined, true);
    expect(store.get(EMBEDDED_ID)).toMatchObject({ user: { username: 'local admin' }, signedIn: true });
    expect(store.target(EMBEDDED_ID)).toMatchObject({ token: null, localAdmin: true });
    await store.signIn(EMBEDDED_ID, 'viewer-token', { username: 'viewer' });
    expect(store.get(EMBEDDED_ID)).toMatchObject({ canRestoreLocalAdmin: true });
    expect(store.target(EMBEDDED_ID)?.token).toBe('viewer-token');
    expect(store.target(EMBEDDED_ID)?.localAdmin).toBeUndefined();
    store.restoreLocalAdmin();
    expect(store.get(EMBEDDED_ID)).toMatchObject({ user: { username: 'local admin' }, signedIn: true, canRestoreLocalAdmin: false });
    expect(store.target(EMBEDDED_ID)?.token).toBeNull();
  });

  it('says when the list of connections cannot be stored', () => {
    const storage = memoryStorage();
    storage.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    const errors: string[] = [];
    new ConnectionsStore(storage, createMemorySecretStore(), { onSaveError: (m) => errors.push(m) }).add(draft);
    expect(errors).toEqual([expect.stringMatching(/^Not saved: the list of connections \(QuotaExceededError\)/)]);
  });

  it('ignores a corrupt saved list', () => {
    const storage = memoryStorage();
    storage.setItem('jql.connections.v1', '{not json');
    expect(new ConnectionsStore(storage, createMemorySecretStore()).getSnapshot().connections).toEqual([]);
  });
});

describe('local copies', () => {
  it('adds a copy as a signed-in local connection whose token is never stored, and removes it', async () => {
    const storage = memoryStorage();
    const memory = createMemorySecretStore();
    const secrets = { ...memory, set: vi.fn(memory.set), delete: vi.fn(memory.delete) };
    const store = new ConnectionsStore(storage, secrets);
    store.add(draft);
    const id = store.addLocal({ name: 'Local copy of Prod', baseUrl: 'http://127.0.0.1:40001', token: 'copy-token' });
    expect(store.get(id)).toMatchObject({ kind: 'local', deployment: 'local', readOnly: false, signedIn: true });
    expect(store.target(id)).toMatchObject({ baseUrl: 'http://127.0.0.1:40001', token: 'copy-token' });
    const saved = [...storage.data.values()].join('\n');
    expect(saved).toContain('Staging');
    expect(saved).not.toContain('copy-token');
    expect(saved).not.toContain('Local copy of Prod');
    await store.remove(id);
    expect(store.get(id)).toBeUndefined();
    expect(secrets.set).not.toHaveBeenCalled();
    expect(secrets.delete).not.toHaveBeenCalled();
  });
});
