import { afterAll, describe, expect, it } from 'vitest';
import type { SqlParam } from '../db/sql-session.ts';
import { JqlFailure } from '../errors.ts';
import { memoryDatabase } from '../testing/sqlite.ts';
import { escapeGlob, escapeLike, MAX_PATTERN_CHARS, textMatch, type TextLookup } from './text-match.ts';

// Real SQLite, so the test checks what the patterns match, not only the SQL text.
const { db, sql } = memoryDatabase((connection) => {
  connection.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  const insert = connection.prepare('INSERT INTO t (v) VALUES (?)');
  for (const value of ['Hello World', 'hello world', '50% off_now', 'a*b?c[d]', 'back\\slash', 'Ώmega', null]) insert.run(value);
});
afterAll(() => db.close());

function matching(lookup: TextLookup, value: string): string[] {
  const params: SqlParam[] = [];
  const condition = textMatch('v', lookup, value, params);
  expect(params).toHaveLength(1);
  return sql.all(`SELECT v FROM t WHERE ${condition} ORDER BY id`, params).map((row) => row.v as string);
}

describe('textMatch', () => {
  it('compiles each lookup to one bound pattern with LIKE for the i forms and GLOB for the others', () => {
    const params: SqlParam[] = [];
    expect(textMatch('x', 'icontains', 'a', params)).toBe(`x LIKE ? ESCAPE '\\'`);
    expect(textMatch('x', 'contains', 'a', params)).toBe('x GLOB ?');
    expect(params).toEqual(['%a%', '*a*']);
  });

  it('matches case-sensitively without i and case-insensitively (ASCII) with it', () => {
    expect(matching('contains', 'World')).toEqual(['Hello World']);
    expect(matching('icontains', 'WORLD')).toEqual(['Hello World', 'hello world']);
    expect(matching('startswith', 'hello')).toEqual(['hello world']);
    expect(matching('istartswith', 'HELLO')).toEqual(['Hello World', 'hello world']);
    expect(matching('endswith', 'World')).toEqual(['Hello World']);
    expect(matching('iendswith', 'WORLD')).toEqual(['Hello World', 'hello world']);
    expect(matching('iexact', 'HELLO WORLD')).toEqual(['Hello World', 'hello world']);
    expect(matching('iexact', 'hello')).toEqual([]);
  });

  it('escapes LIKE wildcards with a backslash and GLOB ones with brackets', () => {
    expect(escapeLike('a%b_c\\')).toBe('a\\%b\\_c\\\\');
    expect(escapeGlob('*?[')).toBe('[*][?][[]');
  });

  it('matches every wildcard character literally', () => {
    expect(matching('contains', '%')).toEqual(['50% off_now']);
    expect(matching('icontains', '_')).toEqual(['50% off_now']);
    expect(matching('icontains', '%_')).toEqual([]);
    expect(matching('contains', '*')).toEqual(['a*b?c[d]']);
    expect(matching('contains', '?')).toEqual(['a*b?c[d]']);
    expect(matching('startswith', 'a*b?c[')).toEqual(['a*b?c[d]']);
    expect(matching('endswith', '[d]')).toEqual(['a*b?c[d]']);
    expect(matching('icontains', '\\')).toEqual(['back\\slash']);
    expect(matching('iexact', 'back\\slash')).toEqual(['back\\slash']);
  });

  it('never matches NULL and keeps non-ASCII characters exact', () => {
    expect(matching('icontains', '')).toHaveLength(6);
    expect(matching('contains', 'Ώ')).toEqual(['Ώmega']);
  });

  it('refuses a text longer than SQLite can match as invalid_request', () => {
    const long = 'x'.repeat(MAX_PATTERN_CHARS + 1);
    for (const run of [() => escapeLike(long), () => escapeGlob(long), () => textMatch('v', 'contains', long, [])]) {
      try {
        run();
        expect.unreachable('a long text passed');
      } catch (error) {
        expect(error).toBeInstanceOf(JqlFailure);
        expect((error as JqlFailure).errors[0]?.code).toBe('invalid_request');
      }
    }
    expect(matching('contains', 'x'.repeat(MAX_PATTERN_CHARS))).toEqual([]);
  });
});
