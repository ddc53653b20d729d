/**
 * Database access by kind (docs/architecture.md). Nothing outside src/server/db touches a connection:
 * - `read(fn)`: the read-only connection, which sees committed data only. Model and collection reads
 *   that are not part of a write, identity, file access checks and the streams read here.
 * - `write(fn)`: the gate. One write at a time, in one transaction (which may span awaits: controllers,
 *   password hashes); `transaction(fn)` inside it nests as a savepoint that rolls back on its own.
 * - `afterCommit(fn)`: runs once the outermost transaction commits and is dropped if the work it was
 *   registered in rolls back (Django's `on_commit`): cache updates, stream fan-out, blob release.
 * - `setup(fn)`: schema work at start, in one transaction on the writer, before any request runs.
 */
import { databaseBusy, isLockError } from '../errors.ts';
import { Gate } from './gate.ts';
import { openReader, openWriter, RUNNING_BUSY_TIMEOUT_MS, setBusyTimeout, START_BUSY_TIMEOUT_MS, type Sqlite } from './connection.ts';
import { StatementCache } from './statements.ts';

export type { Sqlite, Statement } from './connection.ts';
/** A bare writer connection: schema code at start, and tests of it. */
export { openWriter as openDatabase, openReader } from './connection.ts';
export { StatementCache } from './statements.ts';

let savepoints = 0;

export interface DatabaseOptions {
  /** How long a write waits for another process's lock before it is refused as `database_busy`. */
  lockWaitMs?: number;
  /** false: every statement is prepared afresh (the `shortcuts: false` server, StatementCache). */
  reuseStatements?: boolean;
}

/** The default bound of that wait: what SQLite's own busy timeout used to block for. */
export const LOCK_WAIT_MS = 5000;
/** The first pause between tries, doubled each time up to the last. */
const LOCK_RETRY_FIRST_MS = 5;
const LOCK_RETRY_MAX_MS = 100;

export class Database {
  private readonly writer: Sqlite;
  private readonly reader: Sqlite;
  private readonly writerStatements: StatementCache;
  private readonly readerStatements: StatementCache;
  private readonly gate = new Gate();
  /** Callbacks waiting for the commit, one list per open transaction level. */
  private readonly pending: Array<Array<() => void>> = [];
  private readonly commitListeners: Array<() => void> = [];
  private closed = false;
  private readonly lockWaitMs: number;
  /** The error that made SQLite undo the whole open transaction (a full disk), while its work goes on. */
  private undone: unknown = null;

  /** `reuseStatements: false` prepares every statement afresh (StatementCache). */
  constructor(file: string, options: DatabaseOptions = {}) {
    this.lockWaitMs = options.lockWaitMs ?? LOCK_WAIT_MS;
    this.writer = openWriter(file);
    try {
      // The reader needs the file and its WAL to exist: an empty transaction creates both.
      this.writer.exec('BEGIN IMMEDIATE; COMMIT');
      this.reader = file === ':memory:' ? this.writer : openReader(file);
      setBusyTimeout(this.writer, RUNNING_BUSY_TIMEOUT_MS);
    } catch (error) {
      this.writer.close();
      throw error;
    }
    const reuse = options.reuseStatements ?? true;
    this.writerStatements = new StatementCache(this.writer, reuse);
    this.readerStatements = file === ':memory:' ? this.writerStatements : new StatementCache(this.reader, reuse);
  }

  /** Writes running or waiting for the gate (diagnostics, and tests that must know one is queued). */
  get writes(): number {
    return this.gate.size;
  }

  /** Whether a write transaction is open (its work may be awaiting something right now). */
  get inWrite(): boolean {
    return this.pending.length > 0;
  }

  /**
   * Whether work on `statements` runs inside the open write transaction, and so sees its uncommitted
   * writes. The writer's statements are used only by the gate's holder, so this names exactly the
   * work of that request; the read connection's never are (with ':memory:' both are one connection,
   * and reads there do see an open transaction's writes, so the answer is true for them too).
   */
  inTransaction(statements: StatementCache): boolean {
    return statements === this.writerStatements && this.pending.length > 0;
  }

  /** Runs `fn` with statements of the read-only connection. */
  read<T>(fn: (statements: StatementCache) => T): T {
    return fn(this.readerStatements);
  }

  /** Runs `fn` alone, in one transaction on the writer; a throw rolls everything back. */
  write<T>(fn: (statements: StatementCache) => Promise<T> | T): Promise<T> {
    return this.gate.run(() => this.transaction(() => fn(this.writerStatements)));
  }

  /**
   * Inside `write`: a nested transaction (a savepoint) whose failure undoes only its own work, and
   * the afterCommit callbacks registered in it.
   */
  async transaction<T>(work: () => Promise<T> | T): Promise<T> {
    const outermost = this.pending.length === 0;
    const name = `jql_${++savepoints}`;
    if (outermost) {
      const waiting = this.begin();
      if (waiting) await waiting;
      this.undone = null;
    } else {
      // Outside a transaction SQLite would take this savepoint as a new one and commit what follows.
      if (this.undone !== null) throw this.undone;
      this.writer.exec(`SAVEPOINT ${name}`);
    }
    this.pending.push([]);
    let result: T;
    try {
      result = await work();
      // SQLite undid the whole transaction under this work (a full disk): nothing of it may commit.
      if (outermost && this.undone !== null) throw this.undone;
    } catch (error) {
      this.pending.pop();
      this.rollback(outermost ? null : name, error);
      throw error;
    }
    const callbacks = this.pending.pop() as Array<() => void>;
    if (!outermost) {
      this.writer.exec(`RELEASE ${name}`);
      (this.pending[this.pending.length - 1] as Array<() => void>).push(...callbacks);
      return result;
    }
    try {
      this.writer.exec('COMMIT');
    } catch (error) {
      // A commit that fails (the disk filled as the log was written) leaves nothing written.
      if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
      throw error;
    }
    // Synchronously after the COMMIT, before any other code runs: nobody sees the committed data
    // without what follows it (the cache updated, the events fanned out).
    for (const callback of callbacks) callback();
    for (const listener of this.commitListeners) listener();
    return result;
  }

  /**
   * Opens the outermost transaction now, or returns the wait for the lock another process holds: tries
   * again after pauses that double up to LOCK_RETRY_MAX_MS, each a timer, so reads keep being answered
   * meanwhile (issue 30.5); past lockWaitMs the write is refused as `database_busy`.
   */
  private begin(): Promise<void> | null {
    try {
      this.writer.exec('BEGIN IMMEDIATE');
      return null;
    } catch (error) {
      if (!isLockError(error)) throw error;
    }
    return this.waitForLock();
  }

  private async waitForLock(): Promise<void> {
    const deadline = performance.now() + this.lockWaitMs;
    let pause = LOCK_RETRY_FIRST_MS;
    for (;;) {
      if (performance.now() + pause > deadline) throw databaseBusy();
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, LOCK_RETRY_MAX_MS);
      try {
        this.writer.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if (!isLockError(error)) throw error;
      }
    }
  }

  /** Undoes a failed level; when SQLite has already undone the whole transaction, remembers why. */
  private rollback(savepoint: string | null, error: unknown): void {
    if (!this.writer.inTransaction) {
      if (savepoint !== null) this.undone = error;
      return;
    }
    if (savepoint === null) this.writer.exec('ROLLBACK');
    else this.writer.exec(`ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
  }

  /** Runs `fn` after the outermost transaction commits; outside any transaction, now. */
  afterCommit(fn: () => void): void {
    const level = this.pending[this.pending.length - 1];
    if (level) level.push(fn);
    else fn();
  }

  /** Called after every commit (the stream hub fans out the events it committed). */
  onCommit(listener: () => void): void {
    this.commitListeners.push(listener);
  }

  /** Writer statements for work that runs between requests, right after a commit (event log pruning). */
  committedWriter(): StatementCache {
    if (this.inWrite) throw new Error('committedWriter() is for work outside transactions');
    return this.writerStatements;
  }

  /** Schema work at start: `fn` gets the writer itself, in one transaction. */
  setup<T>(fn: (connection: Sqlite) => T): T {
    // Nothing is answered yet: waiting here, blocked, for another process's lock harms nobody.
    setBusyTimeout(this.writer, START_BUSY_TIMEOUT_MS);
    try {
      return this.writer.transaction(() => fn(this.writer))();
    } finally {
      setBusyTimeout(this.writer, RUNNING_BUSY_TIMEOUT_MS);
    }
  }

  /**
   * Schema work while the server runs (`serve --watch` applying a workspace in place): `fn` gets the
   * writer itself, under the write gate and in one transaction, so no request's write interleaves
   * with it and a throw leaves nothing changed. Its afterCommit callbacks run right after the COMMIT.
   */
  alter<T>(fn: (connection: Sqlite) => T): Promise<T> {
    return this.gate.run(() => this.transaction(() => fn(this.writer)));
  }

  /** Moves the write-ahead log into the database file (after a bulk load). */
  checkpoint(): void {
    this.writer.pragma('wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.reader !== this.writer) this.reader.close();
    this.writer.close();
  }
}
