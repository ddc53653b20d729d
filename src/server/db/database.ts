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
import { Gate } from './gate.ts';
import { openReader, openWriter, type Sqlite } from './connection.ts';
import { StatementCache } from './statements.ts';

export type { Sqlite, Statement } from './connection.ts';
/** A bare writer connection: schema code at start, and tests of it. */
export { openWriter as openDatabase, openReader } from './connection.ts';
export { StatementCache } from './statements.ts';

let savepoints = 0;

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

  /** `reuseStatements: false` prepares every statement afresh (StatementCache). */
  constructor(file: string, options: { reuseStatements?: boolean } = {}) {
    this.writer = openWriter(file);
    try {
      // The reader needs the file and its WAL to exist: an empty transaction creates both.
      this.writer.exec('BEGIN IMMEDIATE; COMMIT');
      this.reader = file === ':memory:' ? this.writer : openReader(file);
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
    this.writer.exec(outermost ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${name}`);
    this.pending.push([]);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      this.pending.pop();
      if (outermost) this.writer.exec('ROLLBACK');
      else this.writer.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw error;
    }
    const callbacks = this.pending.pop() as Array<() => void>;
    if (!outermost) {
      this.writer.exec(`RELEASE ${name}`);
      (this.pending[this.pending.length - 1] as Array<() => void>).push(...callbacks);
      return result;
    }
    this.writer.exec('COMMIT');
    // Synchronously after the COMMIT, before any other code runs: nobody sees the committed data
    // without what follows it (the cache updated, the events fanned out).
    for (const callback of callbacks) callback();
    for (const listener of this.commitListeners) listener();
    return result;
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
    return this.writer.transaction(() => fn(this.writer))();
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
