/**
 * The run history in the browser's IndexedDB (browser mode). One object store keyed by id with an
 * index on `at`; list and search walk that index newest first and stop at the page's end; add drops
 * the oldest runs beyond the retention limit in the same transaction. Work inside a transaction is
 * done in request callbacks only, so it never outlives the transaction.
 */
import { checkRetention, DEFAULT_PAGE, DEFAULT_RETENTION, matchesQuery, searchWords, type HistoryQuery, type HistoryRun, type HistoryStore, type NewHistoryRun } from './history-types.ts';

const STORE = 'runs';
const BY_TIME = 'at';
export const HISTORY_DB_NAME = 'jql-console-history';
const VERSION = 1;

let sequence = 0;

/** Sortable by creation, so runs with the same `at` keep their order in the index. */
export function historyId(now = Date.now()): string {
  const random = Math.random().toString(36).slice(2, 8).padEnd(6, '0');
  return `${now.toString(36).padStart(9, '0')}-${(sequence++ % 36 ** 4).toString(36).padStart(4, '0')}-${random}`;
}

export interface IdbHistoryOptions {
  name?: string;
  retention?: number;
  newId?: () => string;
}

export class IdbHistoryStore implements HistoryStore {
  readonly retention: number;
  private readonly factory: IDBFactory;
  private readonly name: string;
  private readonly newId: () => string;
  private opening: Promise<IDBDatabase> | null = null;

  constructor(factory: IDBFactory, options: IdbHistoryOptions = {}) {
    this.factory = factory;
    this.name = options.name ?? HISTORY_DB_NAME;
    this.retention = checkRetention(options.retention ?? DEFAULT_RETENTION);
    this.newId = options.newId ?? (() => historyId());
  }

  async add(input: NewHistoryRun): Promise<HistoryRun> {
    const run: HistoryRun = { id: this.newId(), ...input };
    await this.transaction('readwrite', (store) => {
      store.put(run);
      const counted = store.count();
      counted.onsuccess = () => {
        let excess = counted.result - this.retention;
        if (excess <= 0) return;
        const cursor = store.index(BY_TIME).openCursor();
        cursor.onsuccess = () => {
          const c = cursor.result;
          if (!c || excess <= 0) return;
          c.delete();
          excess--;
          c.continue();
        };
      };
    });
    return run;
  }

  list(query: HistoryQuery = {}): Promise<HistoryRun[]> {
    const words = searchWords(query.text);
    const limit = query.limit ?? DEFAULT_PAGE;
    let skip = query.offset ?? 0;
    const out: HistoryRun[] = [];
    return this.transaction('readonly', (store, done) => {
      done(out);
      if (limit <= 0) return;
      const cursor = store.index(BY_TIME).openCursor(null, 'prev');
      cursor.onsuccess = () => {
        const c = cursor.result;
        if (!c) return;
        const run = c.value as HistoryRun;
        if (matchesQuery(run, query, words)) {
          if (skip > 0) skip--;
          else out.push(run);
        }
        if (out.length < limit) c.continue();
      };
    });
  }

  get(id: string): Promise<HistoryRun | null> {
    return this.transaction<HistoryRun | null>('readonly', (store, done) => {
      done(null);
      const request = store.get(id);
      request.onsuccess = () => done((request.result as HistoryRun | undefined) ?? null);
    });
  }

  async delete(id: string): Promise<void> {
    await this.transaction('readwrite', (store) => void store.delete(id));
  }

  async clear(): Promise<void> {
    await this.transaction('readwrite', (store) => void store.clear());
  }

  count(): Promise<number> {
    return this.transaction('readonly', (store, done) => {
      done(0);
      const request = store.count();
      request.onsuccess = () => done(request.result);
    });
  }

  private db(): Promise<IDBDatabase> {
    this.opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = this.factory.open(this.name, VERSION);
      request.onupgradeneeded = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains(STORE)) {
          const store = db.createObjectStore(STORE, { keyPath: 'id' });
          store.createIndex(BY_TIME, 'at');
        }
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('Could not open the history database.'));
      request.onblocked = () => reject(new Error('The history database is blocked by another tab.'));
    }).catch((err: unknown) => {
      // Let a later call try again (e.g. after the other tab closed).
      this.opening = null;
      throw err;
    });
    return this.opening;
  }

  /** Resolves with the last value given to `done` once the transaction has committed. */
  private async transaction<T = void>(mode: IDBTransactionMode, work: (store: IDBObjectStore, done: (value: T) => void) => void): Promise<T> {
    const db = await this.db();
    return new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      let value: T | undefined;
      tx.oncomplete = () => resolve(value as T);
      tx.onerror = () => reject(tx.error ?? new Error('A history transaction failed.'));
      tx.onabort = () => reject(tx.error ?? new Error('A history transaction was aborted.'));
      work(tx.objectStore(STORE), (v) => {
        value = v;
      });
    });
  }
}
