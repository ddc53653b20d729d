/**
 * Reads INTEGER cells exactly (docs/protocol.md "Large integers"): better-sqlite3 gives a cell as a
 * double unless the statement reads "safe integers" (every INTEGER a bigint), and a double holds an
 * integer past 2^53 as a neighbour. Rows come back with a number for every integer a double holds and
 * a bigint for the others (exact-integers.ts).
 *
 * Shortcut (docs/architecture.md "Shortcuts"): a statement is read as doubles, which costs nothing,
 * and read again with safe integers only when a number it gave is past Number.MAX_SAFE_INTEGER in
 * magnitude. Any rounded integer lands there (a double past 2^53 is what rounding makes of it), so the
 * check misses none; a REAL that large is read twice for nothing. Without shortcuts every statement
 * reads safe integers and each row is converted.
 */
import { exactInteger } from '../exact-integers.ts';
import type { Statement } from './connection.ts';

export type Row = Record<string, unknown>;
/** Parameters as bound: integers past 2^53 as bigint. */
export type SqlParam = string | number | bigint | null | Buffer;

/** Whether a row holds a number a double may have rounded (past 2^53 in magnitude). */
export function mayBeRounded(row: Row): boolean {
  for (const key in row) {
    const value = row[key];
    if (typeof value === 'number' && (value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER)) return true;
  }
  return false;
}

/** A row read with safe integers, in place: every bigint a double holds becomes a number. */
export function exactRow(row: Row): Row {
  for (const key in row) {
    const value = row[key];
    if (typeof value === 'bigint') row[key] = exactInteger(value);
  }
  return row;
}

/** Runs `read` with the statement giving INTEGER cells as bigint, and switches that off again. */
function withSafeIntegers<T>(statement: Statement, read: () => T): T {
  statement.safeIntegers(true);
  try {
    return read();
  } finally {
    statement.safeIntegers(false);
  }
}

/** All rows, exact. `check`: the shortcut (read as doubles, again only when one may be rounded). */
export function allExact(statement: Statement, params: SqlParam[], check: boolean): Row[] {
  if (check) {
    const rows = statement.all(...params) as Row[];
    let rounded = false;
    for (let i = 0; i < rows.length && !rounded; i++) rounded = mayBeRounded(rows[i] as Row);
    if (!rounded) return rows;
  }
  const rows = withSafeIntegers(statement, () => statement.all(...params) as Row[]);
  for (const row of rows) exactRow(row);
  return rows;
}

/** The first row, exact (see allExact). */
export function getExact(statement: Statement, params: SqlParam[], check: boolean): Row | undefined {
  if (check) {
    const row = statement.get(...params) as Row | undefined;
    if (row === undefined || !mayBeRounded(row)) return row;
  }
  const row = withSafeIntegers(statement, () => statement.get(...params) as Row | undefined);
  return row === undefined ? row : exactRow(row);
}

/**
 * Rows one at a time, exact. With the check, a row that may be rounded ends the doubles' read: the
 * statement is read again with safe integers from its start, and the rows already given are skipped
 * (they held no such number, so they are the same rows).
 */
export function* iterateExact(statement: Statement, params: SqlParam[], check: boolean): Generator<Row> {
  let given = 0;
  if (check) {
    let rounded = false;
    for (const row of statement.iterate(...params) as IterableIterator<Row>) {
      if (mayBeRounded(row)) {
        rounded = true;
        break;
      }
      given += 1;
      yield row;
    }
    if (!rounded) return;
  }
  statement.safeIntegers(true);
  try {
    let index = 0;
    for (const row of statement.iterate(...params) as IterableIterator<Row>) if (index++ >= given) yield exactRow(row);
  } finally {
    statement.safeIntegers(false);
  }
}

/** A write's result, its new rowid exact: a rowid past 2^53 would otherwise name another record. */
export function runExact(statement: Statement, params: SqlParam[]): { changes: number; lastInsertRowid: number | bigint } {
  const result = withSafeIntegers(statement, () => statement.run(...params));
  const rowid = result.lastInsertRowid;
  return { changes: result.changes, lastInsertRowid: typeof rowid === 'bigint' ? exactInteger(rowid) : rowid };
}
