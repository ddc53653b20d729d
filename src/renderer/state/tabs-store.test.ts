import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryDocumentStorage } from './document-storage.ts';
import { memoryStorage } from './external-store.ts';
import { IdbDocumentStorage } from './idb-document-storage.ts';
import { LEGACY_TABS_KEY, loadTabs } from './tabs-persistence.ts';
import { TabsStore, tabTitle, type TabsStoreOptions } from './tabs-store.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

async function reopen(storage: MemoryDocumentStorage | IdbDocumentStorage, options: TabsStoreOptions = {}) {
  const { saved, problems } = await loadTabs(storage, null);
  return { store: new TabsStore(saved, 'embedded', { storage, ...options }), problems };
}

describe('TabsStore', () => {
  it('starts with one tab on the default connection', () => {
    const store = new TabsStore(null, 'embedded');
    expect(store.getSnapshot().tabs).toHaveLength(1);
    expect(store.active.connectionId).toBe('embedded');
    expect(store.active.text).toContain('tickets.Ticket');
  });

  it('keeps tabs, their text and connection across restarts', async () => {
    const storage = new MemoryDocumentStorage();
    const store = new TabsStore(null, 'embedded', { storage });
    const second = store.open({ text: '{"a": 1}', connectionId: 'conn-x' });
    store.setText(second, '{"a": 2}');
    store.setQueryInfoLevel(second, 2);
    store.recordRun(second, { status: 200, timeMs: 3, size: 40_000_000, at: 1 });
    await store.flush();
    const { store: again } = await reopen(storage);
    expect(again.getSnapshot().tabs).toHaveLength(2);
    expect(again.active).toMatchObject({ id: second, text: '{"a": 2}', connectionId: 'conn-x', queryInfoLevel: 2 });
    // Only the summary of a run is kept, never the response.
    expect(again.active.lastRun).toEqual({ status: 200, timeMs: 3, size: 40_000_000, at: 1 });
  });

  it('keeps a 5 MB document in IndexedDB, writing only the tab that changed', async () => {
    // fake-indexeddb schedules its work on real timers.
    vi.useRealTimers();
    const storage = new IdbDocumentStorage(new IDBFactory());
    const write = vi.spyOn(storage, 'write');
    const store = new TabsStore(null, 'embedded', { storage, saveDelayMs: 0 });
    const other = store.open({ text: '{"other": true}' });
    await store.flush();
    const big = `{"__meta__": {"namespace": "tickets.Ticket", "intent": "create"}, "body": "${'x'.repeat(5 * 1024 * 1024)}"}`;
    store.setText(other, big);
    await store.flush();
    expect(write.mock.lastCall?.[0].map((c) => c.key)).toEqual([`tab:${other}`]);
    expect(store.getSnapshot().unsaved).toEqual({});
    const { store: again } = await reopen(storage);
    expect(again.get(other)?.text).toBe(big);
  });

  it('debounces saving typed text, and shows the tab as pending until it is stored', async () => {
    const storage = new MemoryDocumentStorage();
    const store = new TabsStore(null, 'embedded', { storage });
    await store.flush();
    store.setText(store.active.id, 'x');
    expect(store.getSnapshot().unsaved).toEqual({ [store.active.id]: 'pending' });
    expect(storage.data.get(`tab:${store.active.id}`)).not.toContain('"text":"x"');
    await vi.advanceTimersByTimeAsync(400);
    expect(storage.data.get(`tab:${store.active.id}`)).toContain('"text":"x"');
    expect(store.getSnapshot().unsaved).toEqual({});
  });

  it('says once which tab was not saved and why, keeps its text, and stores it with the next change', async () => {
    const storage = new MemoryDocumentStorage();
    const errors: string[] = [];
    const store = new TabsStore(null, 'embedded', { storage, onSaveError: (m) => errors.push(m) });
    await store.flush();
    const id = store.active.id;
    storage.failWith = Object.assign(new Error('Quota exceeded'), { name: 'QuotaExceededError' });
    store.setText(id, '{"__meta__": {"namespace": "tickets.Ticket", "intent": "delete"}}');
    await vi.advanceTimersByTimeAsync(400);
    store.setText(id, '{"__meta__": {"namespace": "tickets.Ticket", "intent": "delete"}, "n": 2}');
    await vi.advanceTimersByTimeAsync(400);
    expect(errors).toEqual([
      'Not saved: the tab "Ticket · delete" (the storage for this console is full). The document stays in the editor; copy it somewhere safe before closing this window.',
    ]);
    expect(store.getSnapshot().unsaved).toEqual({ [id]: 'failed' });
    expect(store.get(id)?.text).toContain('"n": 2');

    storage.failWith = null;
    store.setQueryInfoLevel(id, 1);
    await store.flush();
    expect(store.getSnapshot().unsaved).toEqual({});
    const { store: again } = await reopen(storage);
    expect(again.get(id)).toMatchObject({ text: expect.stringContaining('"n": 2'), queryInfoLevel: 1 });
  });

  it('activates a neighbour when the active tab closes, never ends with no tab, and forgets closed tabs', async () => {
    const storage = new MemoryDocumentStorage();
    const store = new TabsStore(null, 'embedded', { storage });
    const first = store.active.id;
    const second = store.open();
    const third = store.open();
    store.activate(second);
    store.close(second);
    expect(store.getSnapshot().activeId).toBe(third);
    store.close(third);
    store.close(first);
    expect(store.getSnapshot().tabs).toHaveLength(1);
    expect(store.active.id).not.toBe(first);
    await store.flush();
    expect([...storage.data.keys()].sort()).toEqual(['tab:' + store.active.id, 'tabs'].sort());
  });

  it('moves tabs off a deleted connection', () => {
    const store = new TabsStore(null, 'embedded');
    store.open({ connectionId: 'gone' });
    store.reassignConnection('gone', 'embedded');
    expect(store.getSnapshot().tabs.every((t) => t.connectionId === 'embedded')).toBe(true);
  });

  it('survives corrupt saved state, naming what it left out', async () => {
    const storage = new MemoryDocumentStorage();
    storage.data.set('tabs', JSON.stringify({ ids: ['bad', 'ok', 'missing'], activeId: 'nope' }));
    storage.data.set('tab:bad', '{not json');
    storage.data.set('tab:ok', JSON.stringify({ id: 'ok', text: 't', queryInfoLevel: 7, savedAs: { kind: 'folder', folderId: 3 } }));
    const { store, problems } = await reopen(storage);
    expect(store.getSnapshot().tabs).toEqual([{ id: 'ok', text: 't', connectionId: 'embedded', queryInfoLevel: 0, lastRun: null, savedAs: null }]);
    expect(store.active.id).toBe('ok');
    expect(problems).toHaveLength(2);
  });

  it('keeps where a tab was saved across restarts (Ctrl/Cmd+S writes there again)', async () => {
    const storage = new MemoryDocumentStorage();
    const store = new TabsStore(null, 'embedded', { storage });
    store.setSavedAs(store.active.id, { kind: 'folder', folderId: 'demo-collection', path: 'errors/x.jql.json' });
    await store.flush();
    const { store: again } = await reopen(storage);
    expect(again.active.savedAs).toEqual({ kind: 'folder', folderId: 'demo-collection', path: 'errors/x.jql.json' });
    again.close(again.active.id);
    expect(again.active.savedAs).toBeNull();
  });

  it('moves the tabs an older version kept in localStorage, and removes that copy once stored', async () => {
    const legacy = memoryStorage();
    legacy.setItem(LEGACY_TABS_KEY, JSON.stringify({ tabs: [{ id: 'old', text: '{"kept": true}' }], activeId: 'old' }));
    const storage = new MemoryDocumentStorage();
    const { saved } = await loadTabs(storage, legacy);
    const store = new TabsStore(saved, 'embedded', { storage, onAllSaved: () => legacy.removeItem(LEGACY_TABS_KEY) });
    await store.flush();
    expect(legacy.getItem(LEGACY_TABS_KEY)).toBeNull();
    const { store: again } = await reopen(storage);
    expect(again.active).toMatchObject({ id: 'old', text: '{"kept": true}' });
  });
});

describe('tabTitle', () => {
  it('names a tab after its query', () => {
    expect(tabTitle('{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve"}}')).toBe('Ticket · retrieve');
    expect(tabTitle('{\n  "open": {"__meta__": {"namespace": "a.B", "intent": "retrieve"}}}')).toBe('multi-query (1)');
    expect(tabTitle('{}')).toBe('Query');
  });
});
