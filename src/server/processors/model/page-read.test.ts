// A retrieve's page is read in one call when the workspace's limits prove its rows fit in what is left
// of the answer budget (query/answer-budget.ts rowBytesAtMost times the page's limit), row by row
// otherwise. The proof holds for every value the server stores: the largest records it accepts weigh
// no more than the bound says.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { StatementCache } from '../../db/statements.ts';
import { rowBytes, rowBytesAtMost } from '../../query/answer-budget.ts';
import { buildSelection } from '../../query/selection.ts';
import { selectList } from './records.ts';
import { testApp, writeWorkspace, type TestApp } from '../../testing/fixture.ts';
import type { ModelDef } from '../../workspace/types.ts';

const KiB = 1024;
const anyone = { retrieve: ['anyone'], create: ['anyone'] };
const WORKSPACE = {
  name: 'pages',
  limits: { defaultLimit: 10, maxLimit: 200, maxValueBytes: KiB, maxAnswerBytes: 64 * KiB },
  apps: {
    shop: {
      models: {
        Item: {
          fields: {
            name: { type: 'string', required: true },
            code: { type: 'string', null: true, maxLength: 8 },
            note: { type: 'text', null: true },
            kind: { type: 'string', choices: ['a', 'bbbb'], default: 'a' },
            count: { type: 'integer', null: true },
            price: { type: 'number', null: true },
            ok: { type: 'boolean', default: false },
            day: { type: 'date', null: true },
            at: { type: 'datetime', null: true },
            data: { type: 'json', null: true },
          },
          search: [],
          permissions: anyone,
        },
        // Read by anonymous callers through a row scope, and pointing at the large items.
        Note: {
          fields: {
            body: { type: 'text', null: true },
            kind: { type: 'string', choices: ['open', 'hidden'], default: 'open' },
            item: { type: 'ref', to: 'shop.Item', null: true },
          },
          search: [],
          permissions: { ...anyone, scope: { anyone: { kind: 'open' } } },
        },
      },
    },
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace(WORKSPACE) });
  // The largest record the server stores, 40 times: every value at its bound.
  const largest = {
    __meta__: { namespace: 'shop.Item', intent: 'create', return: { id: null } },
    name: 'x'.repeat(KiB),
    code: '\u{1F600}'.repeat(8),
    note: 'y'.repeat(KiB),
    kind: 'bbbb',
    count: Number.MAX_SAFE_INTEGER,
    price: -1.2345678901234567e-300,
    ok: true,
    day: '2026-12-31',
    at: '2026-12-31T23:59:59.999+14:00',
    data: 'z'.repeat(KiB - 2),
  };
  const made = await t.post(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`q${i}`, largest])));
  expect(Object.values(made.body.__payload__).every((answer: any) => answer.errors === null), JSON.stringify(made.body).slice(0, 500)).toBe(true);
  // 40 notes of 1 KiB, each pointing at its own item; then every other one is moved out of the
  // anonymous scope (which the anonymous caller could not do itself).
  const notes = Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [`n${i}`, { __meta__: { namespace: 'shop.Note', intent: 'create', return: { id: null } }, body: `${i} ${'n'.repeat(KiB - 4)}`, item: i + 1 }]),
  );
  const written = await t.post(notes);
  expect(Object.values(written.body.__payload__).every((answer: any) => answer.errors === null), JSON.stringify(written.body).slice(0, 500)).toBe(true);
  await t.state.db.write((statements) => statements.get(`UPDATE "shop.Note" SET kind = 'hidden' WHERE id % 2 = 0`).run());
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

const model = () => t.state.ws.models.get('shop.Item') as ModelDef;

describe('the bound of a page row', () => {
  it('is never below what the largest stored record weighs', () => {
    const selection = buildSelection(t.state.ws, model(), null, []);
    const bound = rowBytesAtMost(selection.columns, t.state.ws.limits.maxValueBytes);
    const rows = t.state.db.read((statements) => statements.get(`SELECT ${selectList(selection)} FROM "shop.Item" AS t0`).all() as Array<Record<string, unknown>>);
    expect(rows).toHaveLength(40);
    for (const row of rows) expect(rowBytes(row)).toBeLessThanOrEqual(bound);
    // And close to it: three values at maxValueBytes (the json one counted up to twice, its quotes
    // escaped), the rest small.
    expect(bound).toBeLessThan(5 * KiB);
    expect(rowBytes(rows[0] as Record<string, unknown>)).toBeGreaterThan(3 * KiB);
  });
});

describe('reading a page', () => {
  /** Which better-sqlite3 method read the page statements of the requests `run` sends. */
  async function readsOf(run: () => Promise<unknown>, namespace = 'shop.Item'): Promise<{ all: number; iterate: number }> {
    const proto = Object.getPrototypeOf(new StatementCache(openDatabase(':memory:')).get('SELECT 1')) as { all: () => unknown; iterate: () => unknown };
    const isPage = (statement: unknown) => {
      const { source } = statement as { source: string };
      return source.includes(`FROM "${namespace}"`) && source.includes('LIMIT ? OFFSET ?');
    };
    const all = vi.spyOn(proto, 'all');
    const iterate = vi.spyOn(proto, 'iterate');
    await run();
    return { all: all.mock.contexts.filter(isPage).length, iterate: iterate.mock.contexts.filter(isPage).length };
  }

  it('reads a page whose rows cannot pass the budget in one call', async () => {
    // 10 rows of under 4 KiB: under 40 KiB of the 64.
    const reads = await readsOf(async () => {
      const res = await t.post({ __meta__: { namespace: 'shop.Item', intent: 'retrieve', limit: 10 } });
      expect(res.status).toBe(200);
      expect(res.body.__payload__).toHaveLength(10);
    });
    expect(reads).toEqual({ all: 1, iterate: 0 });
  });

  it('reads a page whose rows could pass the budget row by row, and stops there', async () => {
    // 30 rows of up to 4 KiB could weigh 120 KiB: read one by one, refused at about the 18th.
    const reads = await readsOf(async () => {
      const res = await t.post({ __meta__: { namespace: 'shop.Item', intent: 'retrieve', limit: 30 } });
      expect(res.status).toBe(413);
      expect(res.body.__errors__[0].code).toBe('payload_too_large');
    });
    expect(reads).toEqual({ all: 0, iterate: 1 });
  });

  it('reads row by row once an earlier subquery has spent what the bound needs', async () => {
    const page = (limit: number) => ({ __meta__: { namespace: 'shop.Item', intent: 'retrieve', limit } });
    const reads = await readsOf(async () => {
      const res = await t.post({ first: page(12), second: page(10) });
      expect(res.body.__payload__.first.errors).toBeNull();
      // 12 rows spent about 40 KiB: 10 more could pass the rest, and do.
      expect(res.body.__payload__.second.errors[0].code).toBe('payload_too_large');
    });
    expect(reads).toEqual({ all: 1, iterate: 1 });
  });

  it('reads a scoped caller\'s page in one call and still answers only the rows in its scope', async () => {
    const notes = { __meta__: { namespace: 'shop.Note', intent: 'retrieve', limit: 30 }, kind: null };
    const reads = await readsOf(async () => {
      const res = await t.post(notes);
      expect(res.status).toBe(200);
      // 20 of the 40 are in the anonymous scope: all of them, none of the others, and the total says 20.
      expect(res.body.__payload__).toHaveLength(20);
      expect(res.body.__payload__.every((note: { kind: string }) => note.kind === 'open')).toBe(true);
      expect(res.body.__extras__.filtered).toBe(20);
    }, 'shop.Note');
    expect(reads).toEqual({ all: 1, iterate: 0 });
    // By id, a hidden note is not there for this caller.
    const hidden = await t.post({ __meta__: { namespace: 'shop.Note', intent: 'retrieveOne', uniqueObject: { id: 4 } } });
    expect(hidden.body.__errors__[0].code).toBe('not_found');
  });

  it('counts a page read in one call before its references are read, which the budget then refuses', async () => {
    // The 20 notes in scope (about 21 KiB) fit, and so do their 20 items' three large fields alone
    // (about 61 KiB): only both together pass 64 KiB, so the refusal counts the page read at once.
    const plain = await t.post({ __meta__: { namespace: 'shop.Note', intent: 'retrieve', limit: 20 } });
    expect(plain.status).toBe(200);
    const items = await t.post({ __meta__: { namespace: 'shop.Item', intent: 'retrieve', limit: 20, filter: { id__in: plain.body.__payload__.map((note: { item: number }) => note.item) } }, name: null, note: null, data: null });
    expect(items.status).toBe(200);
    expect(items.body.__payload__).toHaveLength(20);
    const reads = await readsOf(async () => {
      const res = await t.post({ __meta__: { namespace: 'shop.Note', intent: 'retrieve', limit: 20 }, body: null, item: { name: null, note: null, data: null } });
      expect(res.status).toBe(413);
      expect(res.body.__errors__[0].code).toBe('payload_too_large');
    }, 'shop.Note');
    expect(reads).toEqual({ all: 1, iterate: 0 });
  });
});
