import { describe, expect, it } from 'vitest';
import { openDatabase, StatementCache } from './database.ts';
import { SqlSession } from './sql-session.ts';
import { tempDir } from '../testing/fixture.ts';
import { join } from 'node:path';

describe('database', () => {
  it('opens in WAL mode with foreign keys on', () => {
    const db = openDatabase(join(tempDir(), 'x.sqlite'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('prepares each SQL text once and reuses the statement', () => {
    const db = openDatabase(':memory:');
    const cache = new StatementCache(db);
    const first = cache.get('SELECT 1 AS one');
    expect(cache.get('SELECT 1 AS one')).toBe(first);
    expect(cache.get('SELECT 2 AS two')).not.toBe(first);
  });

  it('counts every statement of a session and traces them only when asked', () => {
    const db = openDatabase(':memory:');
    const cache = new StatementCache(db);
    const quiet = new SqlSession(cache, false);
    quiet.get('SELECT ? AS v', [1]);
    quiet.all('SELECT ? AS v', [2]);
    expect(quiet.queries).toBe(2);
    expect(quiet.traces).toBeNull();
    const traced = new SqlSession(cache, true);
    traced.get('SELECT ? AS v', [3]);
    expect(traced.traces).toEqual([{ sql: 'SELECT ? AS v', params: [3], time_ms: expect.any(Number) }]);
  });
});
