// The integer shortcut of exact-reads.ts (read as doubles, again with safe integers only when a number
// may be rounded) against the plain path (every read with safe integers): the same rows, each
// integer exact, whichever row holds the large one and however the statement is read.
import { afterAll, describe, expect, it } from 'vitest';
import { memoryDatabase } from '../testing/sqlite.ts';
import { allExact, getExact, iterateExact, runExact } from './exact-reads.ts';

const { db } = memoryDatabase((connection) => {
  connection.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, x REAL, s TEXT)');
  const insert = connection.prepare('INSERT INTO t (id, n, x, s) VALUES (?, ?, ?, ?)');
  insert.run(1, 5, 1.5, 'a');
  insert.run(2, -9007199254740991, 1e300, 'b');
  insert.run(3, 9007199254740993n, 2.5, 'c');
  insert.run(4, -9223372036854775808n, null, 'd');
  insert.run(5, 7, 0.5, 'e');
});
afterAll(() => db.close());

const SELECT = 'SELECT id, n, x, s FROM t ORDER BY id';
const expected = [
  { id: 1, n: 5, x: 1.5, s: 'a' },
  { id: 2, n: -9007199254740991, x: 1e300, s: 'b' },
  { id: 3, n: 9007199254740993n, x: 2.5, s: 'c' },
  { id: 4, n: -9223372036854775808n, x: null, s: 'd' },
  { id: 5, n: 7, x: 0.5, s: 'e' },
];

describe('exact reads', () => {
  it.each([true, false])('all, get and row by row agree with the check %s', (check) => {
    db.read((statements) => {
      const statement = statements.get(SELECT);
      expect(allExact(statement, [], check)).toEqual(expected);
      expect([...iterateExact(statement, [], check)]).toEqual(expected);
      expect(getExact(statements.get('SELECT n FROM t WHERE id = ?'), [3], check)).toEqual({ n: 9007199254740993n });
      expect(getExact(statements.get('SELECT n FROM t WHERE id = ?'), [1], check)).toEqual({ n: 5 });
      // The statement reads doubles again afterwards: the next plain read is not left in bigint mode.
      expect(statement.all()).toHaveLength(5);
      expect(typeof (statements.get('SELECT n FROM t WHERE id = ?').get(1) as { n: unknown }).n).toBe('number');
    });
  });

  it('a read stopped after the row that needed it gives the rows before it once', () => {
    db.read((statements) => {
      const rows = [];
      for (const row of iterateExact(statements.get(SELECT), [], true)) {
        rows.push(row);
        if (rows.length === 3) break;
      }
      expect(rows).toEqual(expected.slice(0, 3));
    });
  });

  it('a new rowid past 2^53 is exact', () => {
    db.read((statements) => {
      const result = runExact(statements.get('INSERT INTO t (id, n) VALUES (?, 1)'), [9007199254740995n]);
      expect(result.lastInsertRowid).toBe(9007199254740995n);
      expect(runExact(statements.get('INSERT INTO t (n) VALUES (2)'), []).lastInsertRowid).toBe(9007199254740996n);
      statements.get('DELETE FROM t WHERE id > 5').run();
    });
  });
});
