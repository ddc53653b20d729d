/**
 * Transactions that may span `await`s (run under the Gate): savepoints, so they nest (an atomic
 * multi-query around its subqueries) and a failure rolls back only its own level.
 */
import type { Sqlite } from './database.ts';

let counter = 0;

export async function inTransaction<T>(db: Sqlite, work: () => Promise<T>): Promise<T> {
  const name = `jql_${++counter}`;
  db.exec(`SAVEPOINT ${name}`);
  try {
    const result = await work();
    db.exec(`RELEASE ${name}`);
    return result;
  } catch (error) {
    db.exec(`ROLLBACK TO ${name}`);
    db.exec(`RELEASE ${name}`);
    throw error;
  }
}
