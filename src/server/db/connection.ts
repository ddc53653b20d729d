/**
 * The only module that opens better-sqlite3 (a lint rule keeps it so): the writer, in WAL mode so a
 * reader never waits on it, and read-only connections that see committed snapshots only.
 */
import BetterSqlite3 from 'better-sqlite3';

export type Sqlite = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;

export function openWriter(file: string): Sqlite {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${START_BUSY_TIMEOUT_MS}`);
  return db;
}

/**
 * SQLite's busy wait blocks the thread, and with it every request (issue 30.5): while the server runs,
 * the writer waits at most this long in SQLite; a write's wait for another process's lock is the
 * database's (db/database.ts), asynchronous, between which reads go on being answered.
 */
export const RUNNING_BUSY_TIMEOUT_MS = 10;
/** At start nothing is answered yet: schema work waits for a lock as long as it used to. */
export const START_BUSY_TIMEOUT_MS = 5000;

/** Sets how long the connection waits, blocking, for a lock another connection holds. */
export function setBusyTimeout(db: Sqlite, ms: number): void {
  db.pragma(`busy_timeout = ${ms}`);
}

/** How much of the database file a read connection maps; a larger file reads the rest as before. */
const READER_MMAP_BYTES = 256 * 1024 * 1024;

/**
 * A connection that can only read. In WAL mode each statement it runs sees the database as of the
 * last commit: never a write of a transaction that is still open on the writer.
 */
export function openReader(file: string): Sqlite {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // Reads of the database file go through a memory map instead of a read() call and a copy into
  // SQLite's page cache for each page (issue 14.2: a read by id spent about 2 µs of its CPU there).
  // The mapped pages are the operating system's file cache, shared and given back under pressure;
  // pages still in the WAL are read as before, so a reader sees exactly what it saw without the map.
  db.pragma(`mmap_size = ${READER_MMAP_BYTES}`);
  return db;
}
