// Issue 29, defects 1 and 1b: a cached plan must never answer a request whose values compile to
// another SQL form (`null` is IS NULL, `isnull` flips the test, `ne: null` is IS NOT NULL). Each pair
// runs on one long-lived server, one after the other, so the second meets the plan the first made;
// the expected counts come from the seeded rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';

const ANYONE_READS = { retrieve: ['anyone'], create: ['admin'], update: ['admin'], delete: ['admin'] };

const WORKSPACE = {
  name: 'forms',
  apps: {
    shop: {
      models: {
        Maker: {
          fields: { name: { type: 'string', required: true }, active: { type: 'boolean', null: true }, rank: { type: 'integer', null: true } },
          permissions: ANYONE_READS,
        },
        Item: {
          fields: {
            name: { type: 'string', required: true },
            status: { type: 'string', null: true },
            due: { type: 'date', null: true },
            maker: { type: 'ref', to: 'shop.Maker', null: true },
            buyer: { type: 'ref', to: 'system.User', null: true },
          },
          permissions: ANYONE_READS,
        },
      },
    },
  },
};

/** Maker 1 active, maker 2 inactive, maker 3 with active unknown (NULL). */
const MAKERS = [
  { name: 'm1', active: true, rank: 1 },
  { name: 'm2', active: false, rank: null },
  { name: 'm3', active: null, rank: 3 },
];
/** 12 items: due set on every third, status cycling through open / closed / NULL, makers 1, 2, 3, none. */
const ITEMS = Array.from({ length: 12 }, (_, i) => ({
  name: `i${i}`,
  status: ['open', 'closed', null][i % 3] as string | null,
  due: i % 3 === 0 ? `2030-01-${String(i + 1).padStart(2, '0')}` : null,
  maker: [1, 2, 3, null][i % 4] as number | null,
}));

const expectedCount = (keep: (item: (typeof ITEMS)[number]) => boolean) => ITEMS.filter(keep).length;
const makerOf = (item: (typeof ITEMS)[number]) => (item.maker === null ? null : (MAKERS[item.maker - 1] ?? null));

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace(WORKSPACE), env: { JQL_ADMIN: 'root:root-password-1' } });
  admin = await t.login('root', 'root-password-1');
  for (const maker of MAKERS) expect((await t.post({ __meta__: { namespace: 'shop.Maker', intent: 'create' }, ...maker }, { token: admin })).status).toBe(200);
  for (const item of ITEMS) expect((await t.post({ __meta__: { namespace: 'shop.Item', intent: 'create' }, ...item }, { token: admin })).status).toBe(200);
});
afterAll(() => t.close());

const count = (filter: Record<string, unknown>, token?: string, section = 'filter') =>
  t.post({ __meta__: { namespace: 'shop.Item', intent: 'count', [section]: filter } }, token ? { token } : {});
const retrieve = (filter: Record<string, unknown>, token?: string) =>
  t.post({ __meta__: { namespace: 'shop.Item', intent: 'retrieve', filter, ordering: ['id'] }, name: null }, token ? { token } : {});

async function countIs(filter: Record<string, unknown>, expected: number, token?: string, section = 'filter') {
  const res = await count(filter, token, section);
  expect(res.body.__errors__, JSON.stringify(filter)).toBeNull();
  expect(res.body.__payload__, JSON.stringify(filter)).toEqual({ count: expected });
}

describe('a plan answers only requests whose values compile to its SQL', () => {
  it('flips isnull both ways', async () => {
    await countIs({ due__isnull: true }, expectedCount((i) => i.due === null));
    await countIs({ due__isnull: false }, expectedCount((i) => i.due !== null));
    await countIs({ due__isnull: true }, expectedCount((i) => i.due === null));
  });

  it('reads null as IS NULL after a plain value, and the other way round', async () => {
    await countIs({ maker: 2 }, expectedCount((i) => i.maker === 2));
    await countIs({ maker: null }, expectedCount((i) => i.maker === null));
    await countIs({ maker: 3 }, expectedCount((i) => i.maker === 3));
  });

  it('keeps ne null-safe whether its value is null or not', async () => {
    await countIs({ status__ne: null }, expectedCount((i) => i.status !== null));
    await countIs({ status__ne: 'open' }, expectedCount((i) => i.status !== 'open'));
    await countIs({ status__ne: null }, expectedCount((i) => i.status !== null));
  });

  it('does the same in exclude', async () => {
    await countIs({ status__isnull: true }, expectedCount((i) => i.status !== null), undefined, 'exclude');
    await countIs({ status__isnull: false }, expectedCount((i) => i.status === null), undefined, 'exclude');
  });

  it('does the same through a reference', async () => {
    await countIs({ maker__active__isnull: true }, expectedCount((i) => (makerOf(i)?.active ?? null) === null));
    await countIs({ maker__active__isnull: false }, expectedCount((i) => (makerOf(i)?.active ?? null) !== null));
    await countIs({ 'maker.rank': null }, expectedCount((i) => (makerOf(i)?.rank ?? null) === null));
    await countIs({ 'maker.rank': 3 }, expectedCount((i) => makerOf(i)?.rank === 3));
  });

  it('pages with each request’s own form', async () => {
    const names = async (filter: Record<string, unknown>) => ((await retrieve(filter)).body.__payload__ as Array<{ name: string }>).map((r) => r.name);
    expect(await names({ status: 'open' })).toEqual(ITEMS.filter((i) => i.status === 'open').map((i) => i.name));
    expect(await names({ status: null })).toEqual(ITEMS.filter((i) => i.status === null).map((i) => i.name));
  });

  it('reads one record by another form of its uniqueObject', async () => {
    const one = (unique: Record<string, unknown>) => t.post({ __meta__: { namespace: 'shop.Item', intent: 'retrieveOne', uniqueObject: unique }, name: null });
    expect((await one({ name: 'i4', due: null })).body.__payload__).toEqual({ id: 5, name: 'i4' });
    expect((await one({ name: 'i3', due: '2030-01-04' })).body.__payload__).toEqual({ id: 4, name: 'i3' });
    expect((await one({ name: 'i3', due: null })).body.__errors__[0].code).toBe('not_found');
  });
});

describe('a caller never changes what a plan answers another (defect 1b)', () => {
  it('answers the admin’s count right after an anonymous caller made the plan with other values', async () => {
    await countIs({ maker__isnull: false, status__isnull: true }, expectedCount((i) => i.maker !== null && i.status === null));
    await countIs({ maker__isnull: true, status__isnull: false }, expectedCount((i) => i.maker === null && i.status !== null), admin);
    await countIs({ maker__isnull: false, status__isnull: false }, expectedCount((i) => i.maker !== null && i.status !== null), admin);
  });
});
