// The answer cache on its own: serialized entries bounded in bytes, staleness by commit, and what a
// write transaction sees of it (docs/protocol.md "`__meta__` keys").
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthUser, CachedAnswer, RequestContext } from '../context.ts';
import { Database, type StatementCache } from '../db/database.ts';
import { SqlSession, untracked } from '../db/sql-session.ts';
import { tempDir } from '../testing/fixture.ts';
import { ensureNosqlTables } from '../processors/nosql/tables.ts';
import { migrate } from '../workspace/migrate.ts';
import { resolveWorkspace } from '../workspace/resolve.ts';
import { AnswerCache } from './answer-cache.ts';
import { installChangeCapture } from './change-capture.ts';

const ws = resolveWorkspace(
  { apps: { shop: { models: { Item: { fields: { name: { type: 'string' } } }, Shelf: { fields: { name: { type: 'string' } } } } } } },
  null,
);

let dir: string;
let db: Database;
beforeEach(() => {
  dir = tempDir('jql-cache-');
  db = new Database(join(dir, 'cache.sqlite'));
  db.setup((connection) => {
    migrate(connection, ws);
    ensureNosqlTables(connection);
    installChangeCapture(connection, ws);
  });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const ann: AuthUser = { id: 1, username: 'ann', roles: [], isActive: true };
const bob: AuthUser = { id: 2, username: 'bob', roles: [], isActive: true };

function ctxOn(statements: StatementCache, user: AuthUser | null = ann): RequestContext {
  return { sql: new SqlSession(statements, false), user, credential: {}, cookies: [], files: new Map() } as unknown as RequestContext;
}
const reading = (user: AuthUser | null = ann) => db.read((statements) => ctxOn(statements, user));
const answer = (payload: CachedAnswer['payload']): CachedAnswer => ({ payload, extras: { filtered: 1, display: 1 } });
const insertItem = (statements: StatementCache) => untracked(statements).run('INSERT INTO "shop.Item" ("name") VALUES (?)', ['x']);

describe('AnswerCache', () => {
  it('keeps the serialized answer: neither the kept object nor a hit can change what the next hit gets', () => {
    const cache = new AnswerCache(db, { maxEntries: 10, maxBytes: 10_000 });
    const kept = answer([{ id: 1, tags: ['a'] }]);
    cache.open(reading(), 'k').keep(['shop.Item'], kept);
    (kept.payload as Array<{ tags: string[] }>)[0]!.tags.push('changed by the writer');
    const hit = cache.open(reading(), 'k').hit as CachedAnswer;
    expect(hit.payload).toEqual([{ id: 1, tags: ['a'] }]);
    (hit.payload as Array<{ tags: string[] }>)[0]!.tags.push('changed by a reader');
    expect(cache.open(reading(), 'k').hit?.payload).toEqual([{ id: 1, tags: ['a'] }]);
  });

  it('is bounded by the size of the serialized answers, and never keeps one over a quarter of it', () => {
    const cache = new AnswerCache(db, { maxEntries: 1000, maxBytes: 10_000 });
    for (let i = 0; i < 50; i++) cache.open(reading(), `key-${i}`).keep(['shop.Item'], answer(['x'.repeat(1000)]));
    expect(cache.size.bytes).toBeLessThanOrEqual(10_000);
    expect(cache.size.entries).toBeLessThan(10);
    // The least recently used went first.
    expect(cache.open(reading(), 'key-49').hit).not.toBeNull();
    expect(cache.open(reading(), 'key-0').hit).toBeNull();
    cache.open(reading(), 'huge').keep(['shop.Item'], answer(['x'.repeat(3000)]));
    expect(cache.open(reading(), 'huge').hit).toBeNull();
  });

  it('an entry is stale once a commit changed a model it read, and only then', async () => {
    const cache = new AnswerCache(db, { maxEntries: 10, maxBytes: 10_000 });
    cache.open(reading(), 'items').keep(['shop.Item'], answer([]));
    cache.open(reading(), 'shelves').keep(['shop.Shelf'], answer([]));
    await db.write((statements) => insertItem(statements));
    expect(cache.open(reading(), 'items').hit).toBeNull();
    expect(cache.open(reading(), 'shelves').hit).not.toBeNull();
  });

  it('does not keep an answer whose read began before a commit that changed what it read', async () => {
    const cache = new AnswerCache(db, { maxEntries: 10, maxBytes: 10_000 });
    const read = cache.open(reading(), 'items');
    await db.write((statements) => insertItem(statements));
    read.keep(['shop.Item'], answer([]));
    expect(cache.open(reading(), 'items').hit).toBeNull();
  });

  it('inside a transaction, an entry it made stale is no hit there, while other requests still get it', async () => {
    const cache = new AnswerCache(db, { maxEntries: 10, maxBytes: 10_000 });
    cache.open(reading(), 'items').keep(['shop.Item'], answer([]));
    let release!: () => void;
    const seen: Array<string | null> = [];
    const writing = db.write(async (statements) => {
      seen.push(cache.open(ctxOn(statements), 'items').hit ? 'hit' : null);
      insertItem(statements);
      seen.push(cache.open(ctxOn(statements), 'items').hit ? 'hit' : null);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await Promise.resolve();
    // Another request, on the read connection, while the transaction waits: committed data only.
    expect(cache.open(reading(), 'items').hit).not.toBeNull();
    release();
    await writing;
    expect(seen).toEqual(['hit', null]);
    expect(cache.open(reading(), 'items').hit).toBeNull();
  });

  it('a savepoint that rolled back no longer counts as a change of its transaction', async () => {
    const cache = new AnswerCache(db, { maxEntries: 10, maxBytes: 10_000 });
    cache.open(reading(), 'items').keep(['shop.Item'], answer([]));
    let inside: unknown = 'unset';
    await db.write(async (statements) => {
      await db
        .transaction(() => {
          insertItem(statements);
          throw new Error('undone');
        })
        .catch(() => undefined);
      inside = cache.open(ctxOn(statements), 'items').hit;
    });
    expect(inside).not.toBeNull();
    expect(cache.open(reading(), 'items').hit).not.toBeNull();
  });

  it('what a transaction keeps is stored when it commits and dropped when it rolls back', async () => {
    const cache = new AnswerCache(db, { maxEntries: 10, maxBytes: 10_000 });
    await db.write((statements) => cache.open(ctxOn(statements), 'committed').keep(['shop.Shelf'], answer(['c'])));
    expect(cache.open(reading(), 'committed').hit?.payload).toEqual(['c']);
    await db
      .write((statements) => {
        cache.open(ctxOn(statements), 'undone').keep(['shop.Shelf'], answer(['u']));
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(cache.open(reading(), 'undone').hit).toBeNull();
    // A read of something the same transaction then changed is stale as soon as it commits.
    await db.write((statements) => {
      cache.open(ctxOn(statements), 'items').keep(['shop.Item'], answer([]));
      insertItem(statements);
    });
    expect(cache.open(reading(), 'items').hit).toBeNull();
  });

  it("a change to a user's row makes that user's entries stale, and no one else's", async () => {
    const cache = new AnswerCache(db, { maxEntries: 10, maxBytes: 10_000 });
    await db.write((statements) => {
      const sql = untracked(statements);
      for (const user of [ann, bob]) sql.run('INSERT INTO "system.User" ("id", "username", "roles") VALUES (?, ?, ?)', [user.id, user.username, '[]']);
    });
    cache.open(reading(ann), 'ann').keep(['shop.Shelf'], answer([]));
    cache.open(reading(bob), 'bob').keep(['shop.Shelf'], answer([]));
    cache.open(reading(null), 'anyone').keep(['shop.Shelf'], answer([]));
    await db.write((statements) => untracked(statements).run('UPDATE "system.User" SET "roles" = ? WHERE "id" = ?', ['["lead"]', ann.id]));
    expect(cache.open(reading(ann), 'ann').hit).toBeNull();
    expect(cache.open(reading(bob), 'bob').hit).not.toBeNull();
    expect(cache.open(reading(null), 'anyone').hit).not.toBeNull();
  });
});
