import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { MemoryDocumentStorage } from '../../state/document-storage.ts';
import { memoryStorage } from '../../state/external-store.ts';
import { IdbDocumentStorage } from '../../state/idb-document-storage.ts';
import { exportFileName, FILE_FORMAT, parseCollectionsFile } from './collection-file.ts';
import { LEGACY_STORAGE_KEY, loadSavedQueries, SAVED_QUERIES_KEY, SavedQueriesError, SavedQueriesStore } from './saved-queries-store.ts';

const doc = '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieveOne", "uniqueObject": {"id": "{{ticketId}}"}}}';

function fresh() {
  const storage = new MemoryDocumentStorage();
  const errors: string[] = [];
  let t = 1000;
  return { storage, errors, store: new SavedQueriesStore(null, { storage, now: () => t++, onSaveError: (m) => errors.push(m) }) };
}

const reload = async (storage: MemoryDocumentStorage | IdbDocumentStorage) => new SavedQueriesStore((await loadSavedQueries(storage, null)).saved, { storage });

describe('SavedQueriesStore', () => {
  it('creates collections and saves, updates, moves and deletes queries, persisting each change', async () => {
    const { store, storage } = fresh();
    const a = store.createCollection('  Tickets ');
    const b = store.createCollection('Chat');
    const q = store.saveQuery(a, { name: 'One ticket', document: doc });
    store.updateQuery(a, q, { name: 'A ticket', description: 'by id' });
    expect(store.collection(a)).toMatchObject({ name: 'Tickets', queries: [{ id: q, name: 'A ticket', description: 'by id', document: doc }] });
    store.moveQuery(a, q, b);
    expect(store.collection(a)?.queries).toEqual([]);
    expect(store.collection(b)?.queries.map((x) => x.id)).toEqual([q]);
    store.deleteQuery(b, q);
    store.renameCollection(b, 'Messages');
    store.deleteCollection(a);
    expect(store.getSnapshot().collections.map((c) => c.name)).toEqual(['Messages']);

    await store.whenSaved();
    expect((await reload(storage)).getSnapshot()).toEqual(store.getSnapshot());
  });

  it('keeps a 3 MB query in IndexedDB across a reload', async () => {
    const storage = new IdbDocumentStorage(new IDBFactory());
    const store = new SavedQueriesStore(null, { storage });
    const big = `{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "filter": {"title__in": ${JSON.stringify(Array.from({ length: 150_000 }, (_, i) => `t${i}`))}}}}`;
    expect(big.length).toBeGreaterThan(1_000_000);
    const c = store.createCollection('Big');
    store.saveQuery(c, { name: 'Huge filter', document: big + ' '.repeat(3 * 1024 * 1024 - big.length) });
    await store.whenSaved();
    const again = await reload(storage);
    expect(again.collection(c)?.queries[0]?.document.length).toBe(3 * 1024 * 1024);
  });

  it('takes back a change that could not be stored, says what was not saved, and never claims it was', async () => {
    const { store, storage, errors } = fresh();
    const c = store.createCollection('Triage');
    await store.whenSaved();
    storage.failWith = Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
    store.saveQuery(c, { name: 'Open by priority', document: '{}' });
    await expect(store.whenSaved()).rejects.toThrow('Not saved: the query "Open by priority" (the storage for this console is full).');
    expect(errors).toEqual(['Not saved: the query "Open by priority" (the storage for this console is full).']);
    expect(store.collection(c)?.queries).toEqual([]);
    // Once the storage takes writes again, the next change is stored.
    storage.failWith = null;
    store.saveQuery(c, { name: 'Again', document: '{}' });
    await store.whenSaved();
    expect((await reload(storage)).collection(c)?.queries.map((q) => q.name)).toEqual(['Again']);
  });

  it('moves what an older version kept in localStorage', async () => {
    const legacy = memoryStorage();
    legacy.setItem(LEGACY_STORAGE_KEY, JSON.stringify({ collections: [{ id: 'c', name: 'Old', queries: [], createdAt: 1, updatedAt: 1 }], environments: {} }));
    const storage = new MemoryDocumentStorage();
    const loaded = await loadSavedQueries(storage, legacy);
    expect(loaded.migrated).toBe(true);
    await new SavedQueriesStore(loaded.saved, { storage }).saveAll();
    expect(JSON.parse(storage.data.get(SAVED_QUERIES_KEY)!)).toMatchObject({ collections: [{ name: 'Old' }] });
  });

  it('refuses empty, long and duplicate names with a sentence', () => {
    const { store } = fresh();
    const a = store.createCollection('Tickets');
    expect(() => store.createCollection(' ')).toThrow('The collection needs a name.');
    expect(() => store.createCollection('x'.repeat(201))).toThrow(SavedQueriesError);
    expect(() => store.createCollection('tickets')).toThrow('There is already a collection named "tickets".');
    expect(() => store.saveQuery(a, { name: '', document: '{}' })).toThrow('The query needs a name.');
    expect(() => store.saveQuery('gone', { name: 'x', document: '{}' })).toThrow('That collection no longer exists.');
    expect(() => store.updateQuery(a, 'gone', { name: 'x' })).toThrow('That saved query no longer exists.');
    expect(() => store.moveQuery(a, 'gone', a + 'x')).toThrow(SavedQueriesError);
    store.renameCollection(a, 'TICKETS');
    expect(store.collection(a)?.name).toBe('TICKETS');
  });

  it('keeps an environment per connection and fills variables from it', () => {
    const { store } = fresh();
    store.setEnvironment('local', [{ name: 'ticketId', value: '5' }, { name: ' who ', value: 'Ann' }]);
    store.setEnvironment('prod', [{ name: 'ticketId', value: '"T-5"' }]);
    expect(store.variables('local')).toEqual({ ticketId: 5, who: 'Ann' });
    expect(store.resolve(doc, 'local')).toMatchObject({ ok: true, text: doc.replace('"{{ticketId}}"', '5') });
    expect(store.resolve(doc, 'prod')).toMatchObject({ ok: true, text: doc.replace('"{{ticketId}}"', '"T-5"') });
    expect(store.resolve(doc, 'other')).toMatchObject({ ok: false, errors: [{ name: 'ticketId' }] });
    expect(() => store.setEnvironment('local', [{ name: '1x', value: '' }])).toThrow('not a variable name');
    expect(() => store.setEnvironment('local', [{ name: 'a', value: '' }, { name: 'a', value: '' }])).toThrow('defined twice');
    expect(store.environment('nobody')).toEqual([]);
  });

  it('exports and imports collections, renaming on a clash', () => {
    const { store } = fresh();
    const a = store.createCollection('Tickets');
    store.saveQuery(a, { name: 'One ticket', document: doc, description: 'by id' });
    store.saveQuery(a, { name: 'All', document: '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve"}}' });
    const json = store.exportJson([a]);
    const file = JSON.parse(json);
    expect(file).toMatchObject({ format: FILE_FORMAT, version: 1, collections: [{ name: 'Tickets', queries: [{ name: 'One ticket', document: doc, description: 'by id' }, { name: 'All' }] }] });
    expect(file.collections[0].queries[1]).not.toHaveProperty('description');

    const result = store.importJson(json);
    expect(result).toEqual({ ok: true, imported: [{ name: 'Tickets (2)', queries: 2, renamedFrom: 'Tickets' }] });
    const [original, copy] = store.getSnapshot().collections;
    expect(copy?.queries.map((q) => [q.name, q.document, q.description])).toEqual(original?.queries.map((q) => [q.name, q.document, q.description]));
    expect(copy?.id).not.toBe(original?.id);
    expect(store.importJson(json)).toMatchObject({ ok: true, imported: [{ name: 'Tickets (3)' }] });

    const other = fresh().store;
    expect(other.importJson(store.exportJson())).toMatchObject({ ok: true, imported: [{ name: 'Tickets' }, { name: 'Tickets (2)' }, { name: 'Tickets (3)' }] });
  });

  it('reports an invalid import without changing anything', () => {
    const { store } = fresh();
    expect(store.importJson('{"format": "something"}')).toEqual({ ok: false, errors: ['This is not a JQL Console collections file (format must be "jql-console/collections")'] });
    expect(store.getSnapshot().collections).toEqual([]);
  });

  it('survives corrupt storage', async () => {
    const storage = new MemoryDocumentStorage();
    storage.data.set(SAVED_QUERIES_KEY, '{"collections": [{"id": 1}, {"id": "c", "name": "ok", "queries": [{"id": "q"}, {"id": "q2", "name": "n", "document": "{}"}]}], "environments": null}');
    expect((await reload(storage)).getSnapshot()).toMatchObject({ collections: [{ id: 'c', queries: [{ id: 'q2' }] }], environments: {} });
    storage.data.set(SAVED_QUERIES_KEY, 'not json');
    expect((await reload(storage)).getSnapshot()).toEqual({ collections: [], environments: {} });
  });
});

describe('parseCollectionsFile', () => {
  const wrap = (collections: unknown, extra: object = {}) => JSON.stringify({ format: FILE_FORMAT, version: 1, collections, ...extra });

  it('says what is wrong and where', () => {
    expect(parseCollectionsFile('{')).toMatchObject({ ok: false, errors: [expect.stringContaining('The file is not JSON')] });
    expect(parseCollectionsFile('[]')).toEqual({ ok: false, errors: ['The file must hold a JSON object'] });
    expect(parseCollectionsFile(wrap([], { version: 2 }))).toEqual({ ok: false, errors: ['Version 2 is not supported (this console reads version 1)'] });
    expect(parseCollectionsFile(wrap({}))).toEqual({ ok: false, errors: ['collections must be an array'] });
    expect(parseCollectionsFile(wrap([5, { name: '', queries: [] }, { name: 'x', queries: {} }, { name: 'y', queries: [1, { name: 'q', document: {} }, { name: 'r', document: '', description: 3 }] }]))).toEqual({
      ok: false,
      errors: [
        'collections[0] must be an object',
        'collections[1].name must be a non-empty string',
        'collections[2].queries must be an array',
        'collections[3].queries[0] must be an object',
        'collections[3].queries[1].document must be a string (the query text)',
        'collections[3].queries[2].description must be a string',
      ],
    });
  });

  it('reads a valid file, trimming names and keeping documents as written', () => {
    expect(parseCollectionsFile(wrap([{ name: ' A ', queries: [{ name: ' q ', document: ' {{x}} ' }] }]))).toEqual({
      ok: true,
      collections: [{ name: 'A', queries: [{ name: 'q', document: ' {{x}} ', description: '' }] }],
    });
  });

  it('names export files safely', () => {
    const now = new Date('2026-03-04T10:00:00Z');
    expect(exportFileName([{ id: 'c', name: 'My / Tickets!', queries: [], createdAt: 0, updatedAt: 0 }], now)).toBe('My-Tickets-2026-03-04.json');
    expect(exportFileName([], now)).toBe('jql-collections-2026-03-04.json');
  });
});
