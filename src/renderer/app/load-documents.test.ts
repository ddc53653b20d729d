import { describe, expect, it } from 'vitest';
import { MemoryDocumentStorage } from '../state/document-storage.ts';
import { memoryStorage } from '../state/external-store.ts';
import { documentStorageFor, loadDocuments } from './load-documents.ts';

describe('loadDocuments', () => {
  it('reads the tabs and the saved collections, moving an older version’s localStorage copy', async () => {
    const legacy = memoryStorage();
    legacy.setItem('jql.tabs.v1', JSON.stringify({ tabs: [{ id: 't', text: '{}' }], activeId: 't' }));
    legacy.setItem('jql.saved-queries.v1', JSON.stringify({ collections: [{ id: 'c', name: 'Old', queries: [] }], environments: {} }));
    const loaded = await loadDocuments(new MemoryDocumentStorage(), legacy);
    expect(loaded.tabs).toMatchObject({ tabs: [{ id: 't' }], migrated: true });
    expect(loaded.saved?.collections.map((c) => c.name)).toEqual(['Old']);
    expect(loaded.savedMigrated).toBe(true);
  });

  it('starts without them when they cannot be read, says so, and writes nothing over them', async () => {
    const storage = new MemoryDocumentStorage();
    storage.data.set('tabs', '{"ids": ["kept"]}');
    storage.get = async () => {
      throw Object.assign(new Error('The database connection is closing.'), { name: 'InvalidStateError' });
    };
    const loaded = await loadDocuments(storage, null);
    expect(loaded.tabs).toBeNull();
    expect(loaded.storage).not.toBe(storage);
    expect(loaded.problems).toEqual([expect.stringMatching(/^The stored tabs and saved queries could not be read \(The database connection is closing\.\): this window starts without them/)]);
    expect(storage.data.get('tabs')).toBe('{"ids": ["kept"]}');
  });

  it('uses the bridge in the desktop app, IndexedDB in a browser, and memory (with a word) without either', async () => {
    expect(documentStorageFor({ documentsGet: async () => null, documentsWrite: async () => {} } as never, undefined).place).toBe("the app's database");
    const memory = documentStorageFor(undefined, undefined);
    expect((await loadDocuments(memory, null)).problems).toEqual(['This browser offers no IndexedDB here: tabs and saved queries last only until the page closes.']);
  });
});
