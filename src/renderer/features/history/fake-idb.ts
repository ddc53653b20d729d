/**
 * A tiny in-memory IndexedDB for unit tests: just the parts IdbHistoryStore uses (open with upgrade,
 * one object store with a keyPath and indexes, put/get/delete/clear/count, index cursors both ways
 * with delete and continue, transactions that commit when no request is pending). Values are
 * structured-cloned like the real thing; a request on a finished transaction or a write in a
 * read-only one throws, so misuse fails here as it would in a browser.
 */

type Handler = (() => void) | null;
type Key = string | number;

class FakeRequest<T = unknown> {
  result = undefined as T;
  error: Error | null = null;
  onsuccess: Handler = null;
  onerror: Handler = null;
  onupgradeneeded: Handler = null;
  onblocked: Handler = null;
  transaction: FakeTransaction | null = null;
}

interface StoreData {
  keyPath: string;
  indexes: Map<string, string>;
  rows: Map<Key, unknown>;
}

class FakeTransaction {
  oncomplete: Handler = null;
  onerror: Handler = null;
  onabort: Handler = null;
  error: Error | null = null;
  private pending = 0;
  private finished = false;
  readonly mode: string;
  private readonly stores: Map<string, StoreData>;

  constructor(stores: Map<string, StoreData>, mode: string) {
    this.stores = stores;
    this.mode = mode;
    this.settle();
  }

  objectStore(name: string): FakeObjectStore {
    const data = this.stores.get(name);
    if (!data) throw new Error(`NotFoundError: no object store ${name}`);
    return new FakeObjectStore(this, data);
  }

  /** Runs `op` as a request: its result goes to onsuccess in a later microtask. */
  request<T>(op: () => T, request = new FakeRequest<T>()): FakeRequest<T> {
    if (this.finished) throw new Error('TransactionInactiveError: the transaction has finished');
    this.pending++;
    queueMicrotask(() => {
      try {
        request.result = op();
        request.onsuccess?.();
      } catch (err) {
        request.error = err as Error;
        this.error = err as Error;
        request.onerror?.();
        this.onerror?.();
      }
      this.pending--;
      this.settle();
    });
    return request;
  }

  checkWritable(): void {
    if (this.mode !== 'readwrite' && this.mode !== 'versionchange') throw new Error('ReadOnlyError: the transaction is read-only');
  }

  private settle(): void {
    queueMicrotask(() => {
      if (this.pending > 0 || this.finished) return;
      this.finished = true;
      this.oncomplete?.();
    });
  }
}

class FakeCursor {
  value: unknown;
  primaryKey: Key;
  private readonly advance: () => void;
  private readonly remove: () => void;

  constructor(value: unknown, primaryKey: Key, advance: () => void, remove: () => void) {
    this.value = value;
    this.primaryKey = primaryKey;
    this.advance = advance;
    this.remove = remove;
  }
  continue(): void {
    this.advance();
  }
  delete(): void {
    this.remove();
  }
}

function compareKeys(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

class FakeIndex {
  private readonly tx: FakeTransaction;
  private readonly data: StoreData;
  private readonly keyPath: string;

  constructor(tx: FakeTransaction, data: StoreData, keyPath: string) {
    this.tx = tx;
    this.data = data;
    this.keyPath = keyPath;
  }

  openCursor(range: null = null, direction: 'next' | 'prev' = 'next'): FakeRequest<FakeCursor | null> {
    void range;
    const keyOf = (row: unknown) => (row as Record<string, unknown>)[this.keyPath];
    const order = [...this.data.rows.entries()]
      .sort(([ka, a], [kb, b]) => compareKeys(keyOf(a), keyOf(b)) || compareKeys(ka, kb))
      .map(([k]) => k);
    if (direction === 'prev') order.reverse();
    const request = new FakeRequest<FakeCursor | null>();
    let position = -1;
    const step = (): FakeCursor | null => {
      position++;
      while (position < order.length && !this.data.rows.has(order[position]!)) position++;
      if (position >= order.length) return null;
      const key = order[position]!;
      return new FakeCursor(
        structuredClone(this.data.rows.get(key)),
        key,
        () => void this.tx.request(step, request),
        () => {
          this.tx.checkWritable();
          this.data.rows.delete(key);
        },
      );
    };
    return this.tx.request(step, request);
  }
}

class FakeObjectStore {
  private readonly tx: FakeTransaction;
  private readonly data: StoreData;

  constructor(tx: FakeTransaction, data: StoreData) {
    this.tx = tx;
    this.data = data;
  }

  createIndex(name: string, keyPath: string): void {
    this.data.indexes.set(name, keyPath);
  }
  index(name: string): FakeIndex {
    const keyPath = this.data.indexes.get(name);
    if (!keyPath) throw new Error(`NotFoundError: no index ${name}`);
    return new FakeIndex(this.tx, this.data, keyPath);
  }
  put(value: unknown): FakeRequest<Key> {
    this.tx.checkWritable();
    const copy = structuredClone(value);
    return this.tx.request(() => {
      const key = (copy as Record<string, Key>)[this.data.keyPath]!;
      this.data.rows.set(key, copy);
      return key;
    });
  }
  get(key: Key): FakeRequest<unknown> {
    return this.tx.request(() => structuredClone(this.data.rows.get(key)));
  }
  delete(key: Key): FakeRequest<undefined> {
    this.tx.checkWritable();
    return this.tx.request(() => void this.data.rows.delete(key));
  }
  clear(): FakeRequest<undefined> {
    this.tx.checkWritable();
    return this.tx.request(() => void this.data.rows.clear());
  }
  count(): FakeRequest<number> {
    return this.tx.request(() => this.data.rows.size);
  }
}

class FakeDatabase {
  readonly stores = new Map<string, StoreData>();
  version = 0;
  readonly objectStoreNames = { contains: (name: string) => this.stores.has(name) };
  private upgrading: FakeTransaction | null = null;

  createObjectStore(name: string, options: { keyPath: string }): FakeObjectStore {
    const data: StoreData = { keyPath: options.keyPath, indexes: new Map(), rows: new Map() };
    this.stores.set(name, data);
    return new FakeObjectStore(this.upgrading!, data);
  }
  transaction(name: string, mode: string = 'readonly'): FakeTransaction {
    if (!this.stores.has(name)) throw new Error(`NotFoundError: no object store ${name}`);
    return new FakeTransaction(this.stores, mode);
  }
  beginUpgrade(): FakeTransaction {
    this.upgrading = new FakeTransaction(this.stores, 'versionchange');
    return this.upgrading;
  }
  close(): void {}
}

export class FakeIdbFactory {
  readonly databases = new Map<string, FakeDatabase>();
  opens = 0;
  /** Make the next open fail. */
  failNextOpen = false;

  open(name: string, version = 1): FakeRequest<FakeDatabase> {
    const request = new FakeRequest<FakeDatabase>();
    this.opens++;
    queueMicrotask(() => {
      if (this.failNextOpen) {
        this.failNextOpen = false;
        request.error = new Error('UnknownError: could not open');
        request.onerror?.();
        return;
      }
      let db = this.databases.get(name);
      if (!db) {
        db = new FakeDatabase();
        this.databases.set(name, db);
      }
      request.result = db;
      if (version > db.version) {
        request.transaction = db.beginUpgrade();
        db.version = version;
        request.onupgradeneeded?.();
      }
      request.onsuccess?.();
    });
    return request;
  }

  /** For the store under test: the fake has the shape of the parts of IDBFactory it uses. */
  asIdbFactory(): IDBFactory {
    return this as unknown as IDBFactory;
  }
}
