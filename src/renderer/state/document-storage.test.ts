import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { BridgeDocumentStorage } from './bridge-document-storage.ts';
import { MemoryDocumentStorage, storageErrorMessage, type DocumentChange } from './document-storage.ts';
import { DocumentWriter } from './document-writer.ts';
import { IdbDocumentStorage } from './idb-document-storage.ts';

describe('IdbDocumentStorage', () => {
  it('writes several keys in one transaction, deletes with null, and reads them back in a new instance', async () => {
    const factory = new IDBFactory();
    const storage = new IdbDocumentStorage(factory);
    await storage.write([
      { key: 'tabs', value: '{"ids":["a"]}' },
      { key: 'tab:a', value: 'x'.repeat(1000) },
    ]);
    await storage.write([{ key: 'tab:a', value: null }]);
    const again = new IdbDocumentStorage(factory);
    expect(await again.get('tabs')).toBe('{"ids":["a"]}');
    expect(await again.get('tab:a')).toBeNull();
    expect(await again.get('nothing')).toBeNull();
  });

  it('stores nothing of a write that fails half-way', async () => {
    const storage = new IdbDocumentStorage(new IDBFactory());
    await storage.write([{ key: 'tabs', value: 'before' }]);
    // A value IndexedDB refuses to store (it cannot be cloned) stands in for a full quota.
    const bad = { key: 'tab:b', value: (() => undefined) as unknown as string };
    await expect(storage.write([{ key: 'tabs', value: 'after' }, bad])).rejects.toThrow();
    expect(await storage.get('tabs')).toBe('before');
  });
});

describe('BridgeDocumentStorage', () => {
  it('passes reads and writes to main', async () => {
    const calls: unknown[] = [];
    const storage = new BridgeDocumentStorage({
      documentsGet: async (key) => (calls.push(['get', key]), 'v'),
      documentsWrite: async (changes) => void calls.push(['write', changes]),
    });
    expect(await storage.get('tabs')).toBe('v');
    await storage.write([{ key: 'tabs', value: null }]);
    expect(calls).toEqual([['get', 'tabs'], ['write', [{ key: 'tabs', value: null }]]]);
  });
});

describe('DocumentWriter', () => {
  it('writes one batch at a time, the newest value of each key winning', async () => {
    const batches: DocumentChange[][] = [];
    let release: () => void = () => {};
    const storage = new MemoryDocumentStorage();
    const write = storage.write.bind(storage);
    storage.write = async (changes) => {
      batches.push([...changes]);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
      return write(changes);
    };
    const writer = new DocumentWriter(storage);
    const first = writer.write([{ key: 'a', value: '1' }]);
    const second = writer.write([{ key: 'b', value: '1' }]);
    const third = writer.write([{ key: 'b', value: '2' }]);
    release();
    await Promise.all([first, second, third]);
    expect(batches).toEqual([[{ key: 'a', value: '1' }], [{ key: 'b', value: '2' }]]);
    expect(storage.data.get('b')).toBe('2');
  });

  it('rejects the callers of a failed batch, and writes it again with the next change', async () => {
    const storage = new MemoryDocumentStorage();
    const writer = new DocumentWriter(storage);
    storage.failWith = new Error('disk I/O error');
    await expect(writer.write([{ key: 'a', value: 'lost?' }])).rejects.toThrow('disk I/O error');
    storage.failWith = null;
    await writer.write([{ key: 'b', value: 'next' }]);
    expect(storage.data.get('a')).toBe('lost?');
  });
});

describe('storageErrorMessage', () => {
  it('says what a person can act on', () => {
    expect(storageErrorMessage(Object.assign(new Error('x'), { name: 'QuotaExceededError' }))).toBe('the storage for this console is full');
    expect(storageErrorMessage(new Error("Error invoking remote method 'documents:write': SqliteError: database or disk is full"))).toBe('the disk is full');
    expect(storageErrorMessage(new Error("Error invoking remote method 'documents:write': Error: A document key is 1 to 200 letters"))).toBe('A document key is 1 to 200 letters');
  });
});
