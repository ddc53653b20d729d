/**
 * What a transaction changed, as the retrieve cache needs to know it (docs/protocol.md "`__meta__` keys"): connection-
 * local (TEMP) triggers on every model table and on the documents table note the name of each model
 * or collection a statement wrote, and for `system.User` the user whose row it was (a change to a
 * user's roles or fields changes what that user may read).
 *
 * The notes are rows of a TEMP table, so they belong to the transaction that wrote them: a savepoint
 * or transaction that rolls back takes its notes with it, and the ones left after a COMMIT are exactly
 * what was committed. Every write is seen, whatever path made it: processors, hooks, controllers,
 * start-up code, and the rows a foreign key's ON DELETE SET NULL rewrites.
 */
import type { Sqlite } from '../db/database.ts';
import type { SqlRunner } from '../db/sql-session.ts';
import { DOCUMENTS_TABLE } from '../processors/nosql/tables.ts';
import { quote } from '../query/paths.ts';
import { SYSTEM_USER_KEY } from '../workspace/system-user.ts';
import type { Workspace } from '../workspace/types.ts';

const CHANGED = 'jql_cache_changed';
const USER_PREFIX = 'user:';

/** The dependency an answer has on its caller's own user row (model keys always hold a dot). */
export function userDependency(id: number): string {
  return `${USER_PREFIX}${id}`;
}

/** Creates the notes table and the triggers on the writer (at start, after migrations). */
export function installChangeCapture(db: Sqlite, ws: Workspace): void {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS ${CHANGED} (name TEXT PRIMARY KEY) WITHOUT ROWID`);
  for (const model of ws.models.values()) {
    const notes = (row: 'NEW' | 'OLD'): string[] =>
      model.key === SYSTEM_USER_KEY ? [literal(model.key), `${literal(USER_PREFIX)} || ${row}."id"`] : [literal(model.key)];
    createTriggers(db, model.table, notes);
  }
  // One table holds every collection: the note is the collection the row belongs to.
  createTriggers(db, DOCUMENTS_TABLE, (row) => [`${row}."collection"`]);
}

function createTriggers(db: Sqlite, table: string, notes: (row: 'NEW' | 'OLD') => string[]): void {
  for (const [event, row] of [
    ['INSERT', 'NEW'],
    ['UPDATE', 'OLD'],
    ['DELETE', 'OLD'],
  ] as const) {
    const name = quote(`jql_cache_${event.toLowerCase()}(${table})`);
    // A guard, not OR IGNORE: the statement that fires a trigger imposes its own conflict policy on
    // the trigger's statements (a foreign key's SET NULL rewriting two rows would abort the delete).
    const inserts = notes(row)
      .map((note) => `INSERT INTO ${CHANGED} (name) SELECT ${note} WHERE NOT EXISTS (SELECT 1 FROM ${CHANGED} WHERE name = ${note});`)
      .join(' ');
    db.exec(`DROP TRIGGER IF EXISTS temp.${name}`);
    db.exec(`CREATE TEMP TRIGGER ${name} AFTER ${event} ON main.${quote(table)} BEGIN ${inserts} END`);
  }
}

/** Inside a write transaction: what it has changed so far (not yet committed). */
export function pendingChanges(sql: SqlRunner): Set<string> {
  return new Set(sql.all(`SELECT name FROM ${CHANGED}`).map((row) => row.name as string));
}

/** Right after a commit, outside any transaction: what it changed; the notes are cleared. */
export function takeCommittedChanges(sql: SqlRunner): string[] {
  return sql.all(`DELETE FROM ${CHANGED} RETURNING name`).map((row) => row.name as string);
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
