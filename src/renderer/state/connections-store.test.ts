import { describe, expect, it, vi } from 'vitest';
import { ConnectionsStore, EMBEDDED_ID } from './connections-store.ts';
import { memoryStorage } from './external-store.ts';
import type { ConnectionSpec } from '../../shared/bridge.ts';
import { createMemorySecretStore, type SecretStore } from './secret-store.ts';

const draft = { name: 'Staging', baseUrl: 'https://staging.example/api', authClass: 'jwt' as const };

describe('ConnectionsStore', () => {
  it('puts the embedded connection first, signed in with the local admin token', () => {
    const store = new ConnectionsStore(memoryStorage(), createMemorySecretStore());
    store.add(draft);
    store.setEmbedded('http://127.0.0.1:5000', { localAdmin: true, token: 'admin-token' });
    const [first] = store.getSnapshot().connections;
    expect(first).toMatchObject({ id: EMBEDDED_ID, kind: 'embedded', signedIn: true });
    expect(store.target(EMBEDDED_ID)).toEqual({ connectionId: EMBEDDED_ID, baseUrl: 'http://127.0.0.1:5000', authClass: 'jwt', token: 'admin-token' });
    expect(store.getSnapshot().embeddedPending).toBe(false);
  });

  it('keeps tokens out of localStorage and in the secret store', async () => {
    const storage = memoryStorage();
    const secrets = createMemorySecretStore();
    const store = new ConnectionsStore(storage, secrets);
    store.setEmbedded('http://127.0.0.1:5000', { localAdmin: true, token: 'admin-token' });
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
    store.setEmbedded('http://e', { localAdmin: false });
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
    store.setEmbedded('http://e', { localAdmin: true, token: 'admin-token' });
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
    again.setEmbedded('http://e', { localAdmin: true, token: 'admin-token' });
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
    store.setEmbedded('http://e', { localAdmin: true, token: 'admin-token' });
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
    store.setEmbedded('http://e', { localAdmin: true });
    expect(store.get(EMBEDDED_ID)).toMatchObject({ user: { username: 'local admin' }, signedIn: true });
    expect(store.target(EMBEDDED_ID)).toMatchObject({ token: null, heldCredential: true });
    await store.signIn(EMBEDDED_ID, 'viewer-token', { username: 'viewer' });
    expect(store.get(EMBEDDED_ID)).toMatchObject({ canRestoreLocalAdmin: true });
    expect(store.target(EMBEDDED_ID)?.token).toBe('viewer-token');
    expect(store.target(EMBEDDED_ID)?.heldCredential).toBeUndefined();
    await store.restoreLocalAdmin();
    expect(store.get(EMBEDDED_ID)).toMatchObject({ user: { username: 'local admin' }, signedIn: true, canRestoreLocalAdmin: false });
    expect(store.target(EMBEDDED_ID)).toMatchObject({ token: null, heldCredential: true });
    await store.signOut(EMBEDDED_ID);
    expect(store.target(EMBEDDED_ID)?.heldCredential).toBeUndefined();
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

  describe('in the desktop app, where main holds the tokens (issue 21.3)', () => {
    function mainHeld() {
      const stored = new Map<string, string>();
      const secrets: SecretStore = {
        persistent: true,
        holder: 'main',
        get: async () => null,
        has: async (key) => stored.has(key),
        set: async (key, value) => void stored.set(key, value),
        delete: async (key) => void stored.delete(key),
      };
      const registered: ConnectionSpec[] = [];
      const forgotten: string[] = [];
      const registry = { register: (spec: ConnectionSpec) => void registered.push(spec), forget: (id: string) => void forgotten.push(id) };
      return { stored, secrets, registered, forgotten, registry };
    }

    it('hands a new token to main and keeps no copy; requests ask main to sign them in', async () => {
      const m = mainHeld();
      const store = new ConnectionsStore(memoryStorage(), m.secrets, { registry: m.registry });
      const id = store.add(draft);
      expect(m.registered).toEqual([{ id, baseUrl: draft.baseUrl, authClass: 'jwt' }]);
      expect(store.target(id)).toEqual({ connectionId: id, baseUrl: draft.baseUrl, authClass: 'jwt', token: null });
      await store.signIn(id, 'remote-token', { username: 'agent' });
      expect(m.stored.get(`token:${id}`)).toBe('remote-token');
      expect(store.target(id)).toEqual({ connectionId: id, baseUrl: draft.baseUrl, authClass: 'jwt', token: null, heldCredential: true });
      expect(JSON.stringify(store.getSnapshot())).not.toContain('remote-token');
      // Main says a token is stored; the page still holds none.
      await store.loadSecrets();
      expect(store.get(id)?.signedIn).toBe(true);
      expect(store.target(id)?.token).toBeNull();
      await store.remove(id);
      expect(m.forgotten).toEqual([id]);
      expect(m.stored.has(`token:${id}`)).toBe(false);
    });

    it('tells main of every stored connection before any request, and of a changed URL or limit', async () => {
      const storage = memoryStorage();
      const first = mainHeld();
      const store = new ConnectionsStore(storage, first.secrets, { registry: first.registry });
      const id = store.add(draft);
      const second = mainHeld();
      const again = new ConnectionsStore(storage, second.secrets, { registry: second.registry });
      expect(second.registered).toEqual([{ id, baseUrl: draft.baseUrl, authClass: 'jwt' }]);
      await again.update(id, { ...draft, baseUrl: 'https://other.example' });
      again.setAnswerLimit(id, 8 * 1024 * 1024);
      expect(second.registered.slice(1)).toEqual([
        { id, baseUrl: 'https://other.example', authClass: 'jwt' },
        { id, baseUrl: 'https://other.example', authClass: 'jwt', answerLimit: 8 * 1024 * 1024 },
      ]);
    });

    it("signs the embedded connection in as main's local admin, which the page never sees", async () => {
      const m = mainHeld();
      const store = new ConnectionsStore(memoryStorage(), m.secrets, { registry: m.registry });
      store.setEmbedded('http://127.0.0.1:5000', { localAdmin: true });
      expect(store.get(EMBEDDED_ID)).toMatchObject({ signedIn: true, user: { username: 'local admin' } });
      expect(store.target(EMBEDDED_ID)).toEqual({ connectionId: EMBEDDED_ID, baseUrl: 'http://127.0.0.1:5000', authClass: 'jwt', token: null, heldCredential: true });
      await store.signIn(EMBEDDED_ID, 'viewer-token', { username: 'viewer' });
      expect(m.stored.get(`token:${EMBEDDED_ID}`)).toBe('viewer-token');
      await store.restoreLocalAdmin();
      expect(m.stored.has(`token:${EMBEDDED_ID}`)).toBe(false);
      expect(store.get(EMBEDDED_ID)).toMatchObject({ signedIn: true, user: { username: 'local admin' } });
      await store.signOut(EMBEDDED_ID);
      // Signed out: main is asked to add nothing.
      expect(store.target(EMBEDDED_ID)?.heldCredential).toBeUndefined();
    });
  });
});

describe('local copies', () => {
  it('adds a copy under its holder\'s connection id, signed in by the console\'s server (the cookie), with no token here', async () => {
    const storage = memoryStorage();
    const memory = createMemorySecretStore();
    const secrets = { ...memory, set: vi.fn(memory.set), delete: vi.fn(memory.delete) };
    const store = new ConnectionsStore(storage, secrets);
    store.add(draft);
    const id = store.addLocal({ name: 'Local copy of Prod', baseUrl: 'http://127.0.0.1:8787/local/copies/copy-abc', connectionId: 'copy-abc' });
    expect(id).toBe('copy-abc');
    expect(store.get(id)).toMatchObject({ kind: 'local', deployment: 'local', readOnly: false, signedIn: true });
    expect(store.target(id)).toEqual({ connectionId: 'copy-abc', baseUrl: 'http://127.0.0.1:8787/local/copies/copy-abc', authClass: 'jwt', token: null, heldCredential: true, gateCookie: true });
    // Signed in as a user of the copy: the token says who, the cookie still opens the way to the copy.
    await store.signIn(id, 'copy-user-token', { username: 'viewer' });
    expect(store.target(id)).toEqual({ connectionId: 'copy-abc', baseUrl: 'http://127.0.0.1:8787/local/copies/copy-abc', authClass: 'jwt', token: 'copy-user-token', gateCookie: true });
    const saved = [...storage.data.values()].join('\n');
    expect(saved).toContain('Staging');
    expect(saved).not.toContain('Local copy of Prod');
    await store.remove(id);
    expect(store.get(id)).toBeUndefined();
    expect(secrets.set).not.toHaveBeenCalled();
    expect(secrets.delete).not.toHaveBeenCalled();
  });

  it('in the desktop app asks main to sign the copy\'s requests, and to forget the copy when it is removed', async () => {
    const forgotten: string[] = [];
    const secrets: SecretStore = { persistent: true, holder: 'main', get: async () => null, has: async () => false, set: async () => undefined, delete: async () => undefined };
    const store = new ConnectionsStore(memoryStorage(), secrets, { registry: { register: () => undefined, forget: (id) => void forgotten.push(id) } });
    const id = store.addLocal({ name: 'Local copy of Prod', baseUrl: 'http://127.0.0.1:40001/local/copies/copy-abc', connectionId: 'copy-abc' });
    expect(store.target(id)).toMatchObject({ token: null, heldCredential: true });
    await store.remove(id);
    expect(forgotten).toEqual(['copy-abc']);
  });
});
