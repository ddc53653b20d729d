/**
 * The console's documents in the browser's IndexedDB (browser mode): one object store of key -> text.
 * A write is one readwrite transaction and resolves on its `complete` event, i.e. once the browser
 * has committed it; a full quota aborts the transaction and rejects with QuotaExceededError.
 */
import type { DocumentChange, DocumentStorage } from './document-storage.ts';

export const DOCUMENTS_DB_NAME = 'jql-console-documents';
const STORE = 'documents';
const VERSION = 1;

export class IdbDocumentStorage implements DocumentStorage {
  readonly place = "this browser's IndexedDB";
  private readonly factory: IDBFactory;
  private readonly name: string;
  private opening: Promise<IDBDatabase> | null = null;

  constructor(factory: IDBFactory, name = DOCUMENTS_DB_NAME) {
    this.factory = factory;
    this.name = name;
  }

  async get(key: string): Promise<string | null> {
    const db = await this.db();
    return new Promise((resolve, reject) => {
      const request = db.transaction(STORE, 'readonly').objectStore(STORE).get(key);
      request.onsuccess = () => resolve(typeof request.result === 'string' ? request.result : null);
      request.onerror = () => reject(request.error ?? new Error(`Could not read ${key}.`));
    });
  }

  async write(changes: readonly DocumentChange[]): Promise<void> {
    const db = await this.db();
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction(STORE, 'readwrite');
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('The write failed.'));
      tx.onabort = () => reject(tx.error ?? new Error('The write was aborted.'));
      const store = tx.objectStore(STORE);
      try {
        for (const { key, value } of changes) {
          if (value === null) store.delete(key);
          else store.put(value, key);
        }
      } catch (err) {
        // A request refused at once (e.g. a value the browser will not clone): nothing is written.
        tx.abort();
        reject(err);
      }
    });
  }

  private db(): Promise<IDBDatabase> {
    this.opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = this.factory.open(this.name, VERSION);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('Could not open the documents database.'));
      request.onblocked = () => reject(new Error('The documents database is blocked by another tab of this console.'));
    }).catch((err: unknown) => {
      this.opening = null;
      throw err;
    });
    return this.opening;
  }
}
