import { describe, expect, it } from 'vitest';
import { memoryStorage } from './external-store.ts';
import { WorkbenchStore } from './workbench-store.ts';

describe('WorkbenchStore', () => {
  it('starts on the query view and remembers each view opened', () => {
    const store = new WorkbenchStore(memoryStorage());
    expect(store.getSnapshot()).toMatchObject({ view: 'query', visited: ['query'] });
    store.show('upload');
    store.show('query');
    store.show('upload');
    expect(store.getSnapshot()).toMatchObject({ view: 'upload', visited: ['query', 'upload'] });
  });

  it("gives connection-bound views their own connection, else the tab's, and falls back when it is gone", () => {
    const store = new WorkbenchStore(memoryStorage());
    const exists = (id: string) => id !== 'deleted';
    expect(store.connectionOf('streams', 'embedded', exists)).toBe('embedded');
    store.setConnection('streams', 'conn-2');
    expect(store.connectionOf('streams', 'embedded', exists)).toBe('conn-2');
    expect(store.connectionOf('upload', 'embedded', exists)).toBe('embedded');
    // History and diff are not bound to one connection.
    store.setConnection('history', 'conn-2');
    expect(store.connectionOf('history', 'embedded', exists)).toBe('embedded');
    store.setConnection('streams', 'deleted');
    expect(store.connectionOf('streams', 'embedded', exists)).toBe('embedded');
  });

  it('keeps the view and the connections across restarts, and ignores junk', () => {
    const storage = memoryStorage();
    const store = new WorkbenchStore(storage);
    store.show('diff');
    store.setConnection('saved', 'conn-9');
    store.openCollectionFolder('demo-collection');
    const again = new WorkbenchStore(storage);
    expect(again.getSnapshot()).toMatchObject({ view: 'diff', visited: ['diff'], connections: { saved: 'conn-9' }, collectionFolder: 'demo-collection' });
    storage.setItem('jql.workbench.v1', '{"view":"nope","connections":{"x":1,"upload":5},"collectionFolder":7}');
    expect(new WorkbenchStore(storage).getSnapshot()).toEqual({ view: 'query', visited: ['query'], connections: {}, collectionFolder: null, docs: { doc: 'protocol', anchor: '', seq: 0 } });
  });
});
