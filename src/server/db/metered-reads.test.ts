// How a request's SqlSession reads rows under its answer budget (query/answer-budget.ts): row by row,
// stopping where the budget runs out, unless the caller knows the rows cannot pass what is left of it;
// then in one call (cheaper), counted after, and refused all the same if they turn out larger.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JqlFailure } from '../errors.ts';
import { AnswerBudget, rowBytes } from '../query/answer-budget.ts';
import type { Statement } from './connection.ts';
import { Database } from './database.ts';
import { SqlSession, type Row } from './sql-session.ts';
import { StatementCache } from './statements.ts';

const SELECT = 'SELECT id, name FROM t ORDER BY id LIMIT ?';

/** The statements of a connection, with how each read took its rows: `all` calls and rows iterated. */
class WatchedStatements extends StatementCache {
  alls = 0;
  iterated = 0;

  private *counted(rows: Iterable<unknown>): Generator<unknown> {
    for (const row of rows) {
      this.iterated += 1;
      yield row;
    }
  }

  override get(sql: string): Statement {
    const statement = super.get(sql);
    return {
      all: (...params: unknown[]) => {
        this.alls += 1;
        return statement.all(...params);
      },
      iterate: (...params: unknown[]) => this.counted(statement.iterate(...params)),
      get: (...params: unknown[]) => statement.get(...params),
      run: (...params: unknown[]) => statement.run(...params),
    } as unknown as Statement;
  }
}

let db: Database;
let statements: WatchedStatements;
/** rowBytes of one row of `t`: every row weighs the same (ids 1-9, names of 100 characters). */
let ROW: number;

beforeEach(() => {
  db = new Database(':memory:');
  db.setup((connection) => {
    connection.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
    const insert = connection.prepare('INSERT INTO t (id, name) VALUES (?, ?)');
    for (let id = 1; id <= 9; id++) insert.run(id, String(id).repeat(100));
  });
  statements = db.read((cache) => new WatchedStatements(cache.connection));
  ROW = rowBytes({ id: 1, name: '1'.repeat(100) });
});
afterEach(() => db.close());

const session = (budget: AnswerBudget, trace = false) => new SqlSession(statements, trace, budget);
const refusal = (read: () => unknown): string | null => {
  try {
    read();
    return null;
  } catch (error) {
    return error instanceof JqlFailure ? (error.errors[0]?.code ?? null) : String(error);
  }
};

describe('a metered session', () => {
  it('reads rows whose bound fits what is left of the budget in one call, and counts them all', () => {
    const budget = new AnswerBudget(10 * ROW);
    const rows = session(budget).all(SELECT, [5], 5 * ROW);
    expect(rows.map((row: Row) => row.id)).toEqual([1, 2, 3, 4, 5]);
    expect(statements.alls).toBe(1);
    expect(statements.iterated).toBe(0);
    expect(budget.used).toBe(5 * ROW);
    // The same with query_info_level=2 tracing the statement.
    const traced = session(new AnswerBudget(10 * ROW), true);
    expect(traced.all(SELECT, [5], 5 * ROW)).toHaveLength(5);
    expect(statements.alls).toBe(2);
    expect(traced.traces).toEqual([expect.objectContaining({ sql: SELECT, params: [5] })]);
  });

  it('reads row by row when the bound does not fit, and stops at the row that passes the budget', () => {
    const budget = new AnswerBudget(3 * ROW);
    expect(refusal(() => session(budget).all(SELECT, [9], 9 * ROW))).toBe('payload_too_large');
    expect(statements.alls).toBe(0);
    // The fourth row passed the budget: the fifth was never read.
    expect(statements.iterated).toBe(4);
  });

  it('reads row by row when no bound is given (a nested level, whose rows the caller cannot bound)', () => {
    const rows = session(new AnswerBudget(100 * ROW)).all(SELECT, [3]);
    expect(rows).toHaveLength(3);
    expect(statements.alls).toBe(0);
    expect(statements.iterated).toBe(3);
  });

  it('still refuses rows larger than their bound said (written past the limits), after reading them', () => {
    // The caller's bound is too small for what the table holds: the rows are read in one call, then
    // counted, and the answer is refused exactly as a row-by-row read would refuse it.
    const budget = new AnswerBudget(3 * ROW);
    expect(refusal(() => session(budget).all(SELECT, [9], 9))).toBe('payload_too_large');
    expect(statements.alls).toBe(1);
  });

  it('shares one budget across statements: once a bound no longer fits, the next read goes row by row', () => {
    const budget = new AnswerBudget(8 * ROW);
    const sql = session(budget);
    expect(sql.all(SELECT, [5], 5 * ROW)).toHaveLength(5);
    expect(budget.hasRoomFor(5 * ROW)).toBe(false);
    expect(refusal(() => sql.all(SELECT, [5], 5 * ROW))).toBe('payload_too_large');
    expect(statements.alls).toBe(1);
    expect(statements.iterated).toBe(4);
    // Spent: every later read is refused at its first row.
    expect(refusal(() => sql.all(SELECT, [1], ROW))).toBe('payload_too_large');
    expect(statements.iterated).toBe(5);
  });
});
