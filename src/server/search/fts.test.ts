// The trigram index behind `search`: kept in step with inserts, updates and deletes by triggers,
// rebuilt when the search fields change, and answering exactly what the LIKE scan answers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Sqlite } from '../db/database.ts';
import { compileSearch, type SearchMode } from '../query/search.ts';
import { migrate } from '../workspace/migrate.ts';
import { resolveWorkspace } from '../workspace/resolve.ts';
import type { ModelDef, Workspace } from '../workspace/types.ts';
import { LIBRARY_WORKSPACE, testApp, writeWorkspace } from '../testing/fixture.ts';
import { ensureSearchIndexes, ftsTableOf } from './fts.ts';

function notesWorkspace(search: string[]): Workspace {
  return resolveWorkspace(
    {
      apps: {
        kb: {
          models: {
            Note: {
              fields: {
                title: { type: 'string', null: true },
                body: { type: 'text', null: true },
                rank: { type: 'string', null: true },
                tag: { type: 'string', null: true },
              },
              search,
            },
          },
        },
      },
    },
    null,
  );
}

function open(ws: Workspace): Sqlite {
  const db = openDatabase(':memory:');
  db.transaction(() => {
    migrate(db, ws);
    ensureSearchIndexes(db, ws);
  })();
  return db;
}

function searchIds(db: Sqlite, model: ModelDef, term: string, mode: SearchMode): number[] {
  const params: Array<string | number | null> = [];
  const where = compileSearch(model, term, params, mode);
  const sql = `SELECT t0."id" AS id FROM "${model.table}" AS t0 ${where ? `WHERE ${where}` : ''} ORDER BY t0."id"`;
  return (db.prepare(sql).all(...params) as Array<{ id: number }>).map((row) => row.id);
}

// Pieces that stress both matchers: LIKE wildcards and escape, quotes, FTS5 syntax, mixed case.
const PIECES = ['\u0000', 'a', 'B', 'c', 'ab', 'AB', 'abc', 'Abc', 'xyz', ' ', '%', '_', '\\', '"', "'", '*', '^', ':', '(', ')', '-', '+', '{', '}', 'NEAR', 'AND', 'or', 'NOT', '""', '%_', '1', '22'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((parts) => parts.join(''));
const maybeText = fc.option(text, { nil: null, freq: 5 });
const row = fc.record({ title: maybeText, body: maybeText, rank: maybeText, tag: maybeText });
const flipCase = (s: string, mask: number) => [...s].map((c, i) => ((mask >> i % 30) & 1 ? c.toUpperCase() : c.toLowerCase())).join('');

type Write = { kind: 'insert'; row: Record<string, string | null> } | { kind: 'update'; at: number; row: Record<string, string | null> } | { kind: 'delete'; at: number };
const write: fc.Arbitrary<Write> = fc.oneof(
  { arbitrary: row.map((r) => ({ kind: 'insert' as const, row: r })), weight: 4 },
  { arbitrary: fc.record({ at: fc.nat(), row }).map((w) => ({ kind: 'update' as const, ...w })), weight: 2 },
  { arbitrary: fc.nat().map((at) => ({ kind: 'delete' as const, at })), weight: 1 },
);

function apply(db: Sqlite, model: ModelDef, writes: Write[]): void {
  const table = `"${model.table}"`;
  for (const w of writes) {
    const ids = (db.prepare(`SELECT id FROM ${table} ORDER BY id`).all() as Array<{ id: number }>).map((r) => r.id);
    if (w.kind === 'insert') {
      db.prepare(`INSERT INTO ${table} (title, body, rank, tag) VALUES (?, ?, ?, ?)`).run(w.row.title, w.row.body, w.row.rank, w.row.tag);
    } else if (ids.length > 0) {
      const id = ids[w.at % ids.length];
      if (w.kind === 'delete') db.prepare(`DELETE FROM ${table} WHERE id = ?`).run(id);
      else db.prepare(`UPDATE ${table} SET title = ?, body = ? WHERE id = ?`).run(w.row.title, w.row.body, id);
    }
  }
}

describe('search index', () => {
  it('answers exactly what the LIKE scan answers, through random writes and random terms', () => {
    fc.assert(
      fc.property(
        fc.array(write, { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(text, fc.nat(), fc.nat(), fc.nat(), fc.integer()), { minLength: 1, maxLength: 12 }),
        (writes, probes) => {
          const ws = notesWorkspace(['title', 'body', 'rank']);
          const model = ws.models.get('kb.Note') as ModelDef;
          const db = open(ws);
          apply(db, model, writes);
          const values = (db.prepare('SELECT title, body, rank, tag FROM "kb.Note"').all() as Array<Record<string, string | null>>).flatMap((r) => Object.values(r)).filter((v): v is string => !!v);
          for (const [random, pick, start, length, mask] of probes) {
            // Half the terms are slices of stored values (case flipped), so they do match something.
            const source = values.length > 0 && pick % 2 === 0 ? (values[pick % values.length] as string) : random;
            const from = source.length === 0 ? 0 : start % source.length;
            const term = flipCase(source.slice(from, from + 1 + (length % 8)), mask);
            expect(searchIds(db, model, term, 'auto'), JSON.stringify(term)).toEqual(searchIds(db, model, term, 'like'));
          }
          db.close();
        },
      ),
      { numRuns: 150 },
    );
  });

  it('finds candidates through the FTS table for terms of three characters or more', () => {
    const ws = notesWorkspace(['title', 'body']);
    const model = ws.models.get('kb.Note') as ModelDef;
    const params: Array<string | number | null> = [];
    expect(compileSearch(model, 'a"b', params)).toContain(`MATCH ?`);
    expect(params[0]).toBe('"a""b"');
    expect(compileSearch(model, 'ab', [])).not.toContain('MATCH');
    // Two code points, three UTF-16 units: no trigram, so a scan.
    expect(compileSearch(model, 'é😀', [])).not.toContain('MATCH');
    expect(compileSearch(model, 'ab', [], 'like')).not.toContain('MATCH');
    expect(compileSearch(model, 'abc\u0000', [])).not.toContain('MATCH');
  });

  it('backfills existing rows, and rebuilds when the search fields change', () => {
    const first = notesWorkspace(['title']);
    const db = openDatabase(':memory:');
    migrate(db, first);
    db.prepare('INSERT INTO "kb.Note" (title, body) VALUES (?, ?), (?, ?)').run('alpha beta', 'gamma delta', 'other', 'alphabet');
    expect(ensureSearchIndexes(db, first)).toContain('kb.Note');
    const model = first.models.get('kb.Note') as ModelDef;
    expect(searchIds(db, model, 'ALPHA', 'auto')).toEqual([1]);
    expect(ensureSearchIndexes(db, first)).toEqual([]);

    const second = notesWorkspace(['title', 'body']);
    migrate(db, second);
    expect(ensureSearchIndexes(db, second)).toEqual(['kb.Note']);
    expect(searchIds(db, second.models.get('kb.Note') as ModelDef, 'alpha', 'auto')).toEqual([1, 2]);

    // A model gone from the workspace keeps its table but no longer its index or triggers.
    ensureSearchIndexes(db, resolveWorkspace({ apps: { kb: { models: {} } } }, null));
    const left = db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%kb.Note%'").all() as Array<{ name: string }>;
    expect(left.map((r) => r.name)).toEqual(['kb.Note']);
    expect(db.prepare('SELECT count(*) AS n FROM "kb.Note"').get()).toEqual({ n: 2 });
    expect(ftsTableOf(model)).toBe('jql_fts(kb.Note)');
    db.close();
  });

  it('serves retrieve and count through the index over HTTP', async () => {
    const t = await testApp({ workspace: writeWorkspace(LIBRARY_WORKSPACE) });
    try {
      for (const title of ['The 100% Solution', 'Snake_case stories', 'Quoted "words"', 'plain']) {
        await t.post({ __meta__: { namespace: 'lib.Book', intent: 'create' }, title });
      }
      const books = (value: string) => ({ __meta__: { namespace: 'lib.Book', intent: 'retrieve', search: { value } }, title: null });
      const res = await t.post(books('0% s'), { query: 'query_info_level=2' });
      expect(res.body.__payload__.map((b: { title: string }) => b.title)).toEqual(['The 100% Solution']);
      expect(res.body.__system__.sql[0].sql).toContain('MATCH');
      expect((await t.post(books('E_C'))).body.__payload__).toHaveLength(1);
      expect((await t.post(books('"WORDS"'))).body.__payload__).toHaveLength(1);
      expect((await t.post(books('s_c'))).body.__payload__).toHaveLength(0);
      await t.post({ __meta__: { namespace: 'lib.Book', intent: 'update', uniqueObject: { id: 4 } }, title: 'now the 100% best' });
      expect((await t.post(books('100%'))).body.__payload__).toHaveLength(2);
      await t.post({ __meta__: { namespace: 'lib.Book', intent: 'delete', uniqueObject: { id: 1 } } });
      expect((await t.post(books('100%'))).body.__payload__).toEqual([{ id: 4, title: 'now the 100% best' }]);
      const count = await t.post({ __meta__: { namespace: 'lib.Book', intent: 'count', search: { value: 'STORIES' } } });
      expect(count.body.__payload__).toEqual({ count: 1 });
    } finally {
      await t.close();
    }
  });
});
