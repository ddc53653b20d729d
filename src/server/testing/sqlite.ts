/** An in-memory database for unit tests of code that takes a SqlRunner or a Database. */
import { Database, type Sqlite } from '../db/database.ts';
import { untracked, type SqlRunner } from '../db/sql-session.ts';

export function memoryDatabase(setup: (connection: Sqlite) => void = () => undefined): { db: Database; sql: SqlRunner } {
  const db = new Database(':memory:');
  db.setup(setup);
  // In memory the reader is the writer, so this runner can write too.
  return { db, sql: db.read((statements) => untracked(statements)) };
}
