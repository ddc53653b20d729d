import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixture.ts';
import { Database, openDatabase, StatementCache } from './database.ts';
import { SqlSession, untracked } from './sql-session.ts';

const dirs: string[] = [];
const databases: Database[] = [];
afterEach(() => {
  for (const db of databases.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fileDatabase(): Database {
  const dir = tempDir();
  dirs.push(dir);
  const db = new Database(join(dir, 'x.sqlite'));
  databases.push(db);
  db.setup((connection) => connection.exec('CREATE TABLE t (v INTEGER)'));
  return db;
}

const count = (db: Database): number => db.read((statements) => untracked(statements).get('SELECT count(*) AS n FROM t')?.n as number);

describe('Database', () => {
  it('reads through a memory map what the writer committed, after the file grows past and shrinks below what was mapped', async () => {
    const db = fileDatabase();
    expect(db.read((statements) => statements.connection.pragma('mmap_size', { simple: true }))).toBeGreaterThan(0);
    const sum = () => db.read((statements) => untracked(statements).get('SELECT count(*) AS n, sum(v) AS s FROM t'));
    expect(sum()).toEqual({ n: 0, s: null });
    // Enough rows to move them from the WAL into a file many times the size it had when first read.
    await db.write((statements) => {
      for (let i = 1; i <= 20_000; i++) untracked(statements).run('INSERT INTO t (v) VALUES (?)', [i]);
    });
    db.checkpoint();
    expect(sum()).toEqual({ n: 20_000, s: (20_000 * 20_001) / 2 });
    await db.write((statements) => untracked(statements).run('DELETE FROM t WHERE v > 10'));
    db.checkpoint();
    // VACUUM rewrites the file smaller; it cannot run in the writer's setup transaction.
    const file = db.read((statements) => statements.connection.name);
    const other = openDatabase(file);
    const grown = statSync(file).size;
    other.exec('VACUUM');
    other.close();
    db.checkpoint();
    expect(statSync(file).size).toBeLessThan(grown / 4);
    expect(sum()).toEqual({ n: 10, s: 55 });
  });

  it('opens in WAL mode with foreign keys on', () => {
    const db = fileDatabase();
    db.setup((connection) => {
      expect(connection.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(connection.pragma('foreign_keys', { simple: true })).toBe(1);
    });
  });

  it('reads committed data only, while a write transaction is open across an await', async () => {
    const db = fileDatabase();
    let release!: () => void;
    const writing = db.write(async (statements) => {
      untracked(statements).run('INSERT INTO t (v) VALUES (1)');
      await new Promise<void>((resolve) => (release = resolve));
    });
    await Promise.resolve();
    expect(count(db)).toBe(0);
    release();
    await writing;
    expect(count(db)).toBe(1);
  });

  it('rolls a failed write back whole', async () => {
    const db = fileDatabase();
    await expect(
      db.write(async (statements) => {
        untracked(statements).run('INSERT INTO t (v) VALUES (1)');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(count(db)).toBe(0);
  });

  it('runs afterCommit callbacks once the outermost transaction commits, in order', async () => {
    const db = fileDatabase();
    const seen: string[] = [];
    await db.write(async (statements) => {
      db.afterCommit(() => seen.push(`outer saw ${count(db)}`));
      await db.transaction(async () => {
        untracked(statements).run('INSERT INTO t (v) VALUES (1)');
        db.afterCommit(() => seen.push('inner'));
      });
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['outer saw 1', 'inner']);
  });

  it('drops the callbacks of work that rolls back, and keeps the rest', async () => {
    const db = fileDatabase();
    const seen: string[] = [];
    await db.write(async (statements) => {
      db.afterCommit(() => seen.push('kept'));
      await db
        .transaction(async () => {
          untracked(statements).run('INSERT INTO t (v) VALUES (1)');
          db.afterCommit(() => seen.push('undone'));
          throw new Error('inner fails');
        })
        .catch(() => undefined);
    });
    expect(seen).toEqual(['kept']);
    expect(count(db)).toBe(0);
    await db.write(() => db.afterCommit(() => seen.push('committed'))).catch(() => undefined);
    await db
      .write(() => {
        db.afterCommit(() => seen.push('rolled back'));
        throw new Error('outer fails');
      })
      .catch(() => undefined);
    expect(seen).toEqual(['kept', 'committed']);
  });

  it('runs afterCommit at once outside any transaction', () => {
    const db = fileDatabase();
    const seen: string[] = [];
    db.afterCommit(() => seen.push('now'));
    expect(seen).toEqual(['now']);
  });

  it('serializes writes: a second one starts after the first committed', async () => {
    const db = fileDatabase();
    const order: string[] = [];
    let release!: () => void;
    const first = db.write(async () => {
      order.push('first');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('first done');
    });
    const second = db.write(() => order.push('second'));
    await Promise.resolve();
    expect(order).toEqual(['first']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'first done', 'second']);
  });

  it('tells the work of the open write transaction from reads on the read connection, and counts queued writes', async () => {
    const db = fileDatabase();
    let release!: () => void;
    const seen: boolean[] = [];
    const first = db.write(async (statements) => {
      seen.push(db.inTransaction(statements));
      await new Promise<void>((resolve) => (release = resolve));
    });
    const second = db.write(() => undefined);
    await Promise.resolve();
    expect(db.writes).toBe(2);
    expect(db.read((statements) => db.inTransaction(statements))).toBe(false);
    release();
    await Promise.all([first, second]);
    expect(seen).toEqual([true]);
    expect(db.writes).toBe(0);
  });
});

describe('statements and sessions', () => {
  it('prepares each SQL text once and reuses the statement', () => {
    const cache = new StatementCache(openDatabase(':memory:'));
    const first = cache.get('SELECT 1 AS one');
    expect(cache.get('SELECT 1 AS one')).toBe(first);
    expect(cache.get('SELECT 2 AS two')).not.toBe(first);
  });

  it('counts every statement of a session and traces them only when asked; bookkeeping is not counted', () => {
    const cache = new StatementCache(openDatabase(':memory:'));
    const quiet = new SqlSession(cache, false);
    quiet.get('SELECT ? AS v', [1]);
    quiet.all('SELECT ? AS v', [2]);
    quiet.untracked.get('SELECT 3 AS v');
    expect(quiet.queries).toBe(2);
    expect(quiet.traces).toBeNull();
    const traced = new SqlSession(cache, true);
    traced.get('SELECT ? AS v', [3]);
    expect(traced.traces).toEqual([{ sql: 'SELECT ? AS v', params: [3], time_ms: expect.any(Number) }]);
  });
});
