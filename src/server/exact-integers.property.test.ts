// Property (issue 29, issue 31 item 4): an integer in SQLite's 64-bit range comes back with the digits
// that were sent, whichever way it is read: by id, by filter (exact, `in`, `gt`/`lt` with ordering),
// through a reference, in a count, from the answer cache and without it, on a server with shortcuts
// (the read as doubles checked for rounding, db/exact-reads.ts) and on one without (every read exact).
// Values are drawn around 2^53 and 2^63 of both signs and at the boundaries; the records' own ids are
// past 2^53 too (the tables are seeded there), and the references point near 2^63.
//
// Default run: 12 runs of up to 6 records, each checked with 7 reads on three ways of asking: about
// 5 s on an idle 2-core machine. With the JSON body parsed by JSON.parse it fails on its first value
// past 2^53 (the record is written as its neighbour); with reads as doubles and no check, on the
// first read of one.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/database.ts';
import { INT64_MAX, INT64_MIN, parseJsonExact } from './exact-integers.ts';
import { testApp, writeWorkspace, type TestApp } from './testing/fixture.ts';

const ANYONE = { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] };
const WORKSPACE = {
  name: 'exact-integers',
  apps: {
    big: {
      models: {
        Target: { fields: { k: { type: 'integer', null: true } }, permissions: ANYONE },
        Item: {
          fields: { tag: { type: 'string' }, n: { type: 'integer', null: true }, target: { type: 'ref', to: 'big.Target', null: true } },
          permissions: ANYONE,
        },
      },
    },
  },
};

const TWO_53 = 2n ** 53n;
/** Reference targets: ids and values at the top of the range, where a double is 1024 apart. */
const TARGETS: Array<{ id: bigint; k: bigint }> = [
  { id: TWO_53 + 1n, k: -(TWO_53 + 1n) },
  { id: INT64_MAX - 1n, k: INT64_MIN },
  { id: INT64_MAX, k: INT64_MAX },
];
/** The Item table's last id: records created next are numbered past 2^53. */
const ITEM_SEED_ID = TWO_53 + 5n;

/** Servers: with every shortcut (asked with and without the answer cache) and without any. */
let fast: TestApp;
let plain: TestApp;

async function seeded(shortcuts: boolean): Promise<TestApp> {
  const t = await testApp({ workspace: writeWorkspace(WORKSPACE), shortcuts });
  // Rows at ids no create would give yet, written as another program would (a data file, SQL).
  const db = openDatabase(`${t.dataDir}/jql.sqlite`);
  try {
    const insert = db.prepare('INSERT INTO "big.Target" (id, k) VALUES (?, ?)');
    for (const target of TARGETS) insert.run(target.id, target.k);
    db.prepare('INSERT INTO "big.Item" (id, tag) VALUES (?, ?)').run(ITEM_SEED_ID, 'seed');
  } finally {
    db.close();
  }
  return t;
}

beforeAll(async () => {
  fast = await seeded(true);
  plain = await seeded(false);
});
afterAll(async () => {
  await fast?.close();
  await plain?.close();
});

/** Posts JSON text (bigints written as digits) and reads the answer keeping every integer's digits. */
async function ask(t: TestApp, body: unknown): Promise<{ status: number; body: any }> {
  const response = await t.app.inject({ method: 'POST', url: '/jql', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { status: response.statusCode, body: parseJsonExact(response.body) };
}

/** An answer's payload from every way of asking, which must all be the same text. */
async function payload(meta: Record<string, unknown>, fields: Record<string, unknown> = {}): Promise<any> {
  const texts: string[] = [];
  let first: any;
  for (const [t, cache] of [[fast, false], [fast, true], [fast, true], [plain, false]] as const) {
    const answer = await ask(t, { __meta__: { ...meta, ...(cache ? { cache: { enabled: true } } : {}) }, ...fields });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    texts.push(JSON.stringify(answer.body.__payload__));
    first ??= answer.body.__payload__;
  }
  expect(new Set(texts).size, texts.join('\n')).toBe(1);
  return first;
}

/** Integers near the edges where doubles round: ±2^53, ±2^63, and a few anywhere in the range. */
const int64 = fc.oneof(
  fc.bigInt({ min: -4n, max: 4n }).map((d) => TWO_53 + d),
  fc.bigInt({ min: -4n, max: 4n }).map((d) => -TWO_53 + d),
  fc.bigInt({ min: 0n, max: 4n }).map((d) => INT64_MAX - d),
  fc.bigInt({ min: 0n, max: 4n }).map((d) => INT64_MIN + d),
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
  fc.integer({ min: -1000, max: 1000 }).map(BigInt),
);

/** The wire form: a number when a double holds it (as a client would send it), else a bigint. */
const wire = (value: bigint): number | bigint => (value >= -(TWO_53 - 1n) && value <= TWO_53 - 1n ? Number(value) : value);
const asBig = (value: unknown): bigint => BigInt(value as number | bigint);

let runs = 0;

describe('64-bit integers', () => {
  it('come back with the digits sent, read by id, by filter, ordered, through a reference and counted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ n: int64, target: fc.nat(TARGETS.length - 1) }), { minLength: 1, maxLength: 6 }), async (rows) => {
        const tag = `run-${(runs += 1)}`;
        const ids: bigint[] = [];
        for (const row of rows) {
          const body = { __meta__: { namespace: 'big.Item', intent: 'create' }, tag, n: wire(row.n), target: wire(TARGETS[row.target]!.id) };
          const created = [await ask(fast, body), await ask(plain, body)];
          for (const answer of created) {
            expect(answer.status, JSON.stringify(answer.body)).toBe(200);
            expect(asBig(answer.body.__payload__.n)).toBe(row.n);
            expect(asBig(answer.body.__payload__.id) > TWO_53).toBe(true);
          }
          // Both servers number their records alike: the same id names the same record on each.
          expect(asBig(created[0]!.body.__payload__.id)).toBe(asBig(created[1]!.body.__payload__.id));
          ids.push(asBig(created[0]!.body.__payload__.id));
        }
        const Item = { namespace: 'big.Item' };

        // By id, with the referenced record's fields.
        for (const [i, row] of rows.entries()) {
          const one = await payload({ ...Item, intent: 'retrieveOne', uniqueObject: { id: wire(ids[i]!) } }, { id: null, n: null, target: { id: null, k: null } });
          const target = TARGETS[row.target]!;
          expect([asBig(one.id), asBig(one.n), asBig(one.target.id), asBig(one.target.k)]).toEqual([ids[i], row.n, target.id, target.k]);
        }

        // Exact filter, `in`, and a count: the records whose value is the one sent, and no neighbour.
        const probe = rows[0]!.n;
        const same = ids.filter((_, i) => rows[i]!.n === probe);
        const matched = await payload({ ...Item, intent: 'retrieve', filter: { tag, n: wire(probe) }, ordering: ['id'] });
        expect(matched.map((record: any) => asBig(record.id))).toEqual(same);
        const pair = [probe, probe + 1n <= INT64_MAX ? probe + 1n : probe - 1n];
        const inPair = await payload({ ...Item, intent: 'retrieve', filter: { tag, n__in: pair.map(wire) }, ordering: ['id'] });
        expect(inPair.map((record: any) => asBig(record.id))).toEqual(ids.filter((_, i) => pair.includes(rows[i]!.n)));
        const counted = await payload({ ...Item, intent: 'count', filter: { tag, n: wire(probe) } });
        expect(counted.count).toBe(same.length);

        // gt / lt with ordering: SQLite compares the 64-bit values, the answer lists them in that order.
        const sorted = rows.map((row, i) => ({ n: row.n, id: ids[i]! })).sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : a.id < b.id ? -1 : 1));
        const above = await payload({ ...Item, intent: 'retrieve', filter: { tag, n__gt: wire(probe) }, ordering: ['n', 'id'] });
        expect(above.map((record: any) => asBig(record.n))).toEqual(sorted.filter((r) => r.n > probe).map((r) => r.n));
        const below = await payload({ ...Item, intent: 'retrieve', filter: { tag, n__lt: wire(probe) }, ordering: ['-n', '-id'] });
        expect(below.map((record: any) => asBig(record.n))).toEqual(sorted.filter((r) => r.n < probe).map((r) => r.n).reverse());

        // Through the reference: a filter on the referenced record's value finds the records pointing at it.
        const target = TARGETS[rows[0]!.target]!;
        const viaTarget = await payload({ ...Item, intent: 'retrieve', filter: { tag, target__k: wire(target.k) }, ordering: ['id'] });
        expect(viaTarget.map((record: any) => asBig(record.id))).toEqual(ids.filter((_, i) => rows[i]!.target === rows[0]!.target));
      }),
      // Each run writes to two servers that live for the whole file: a counterexample is reported as found.
      { numRuns: 12, endOnFailure: true },
    );
  }, 180_000);
});
