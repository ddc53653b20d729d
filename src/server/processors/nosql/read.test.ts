// retrieve, retrieveOne and count on a collection: selection, search, ordering, paging, the cache,
// and the errors a read can answer (docs/protocol.md "`__meta__` keys", "The envelope", "Processors").
import { beforeEach, describe, expect, it } from 'vitest';
import { ids, makeHarness, seed, type Harness } from './test-context.ts';

let h: Harness;

beforeEach(async () => {
  h = makeHarness({ limits: { defaultLimit: 3, maxLimit: 5 } });
  await seed(h, [
    { text: 'Hello', author: { name: 'bob', rank: 2 }, threadId: 'T1' },
    { text: 'Second message', author: { name: 'Ann', rank: 1 }, threadId: 'T1' },
    { text: 'Über', author: { name: 'bob', rank: 2 } },
    { text: 'deep', meta: { notes: ['see ZEBRA here'] }, author: { name: 'Ann' } },
    { text: 'last', author: { name: 'carl', rank: 3 }, threadId: 'T2' },
  ]);
});

describe('retrieve', () => {
  it('answers records as {id, ...document, created_at, updated_at} with paging extras', async () => {
    const out = await h.run({ intent: 'retrieve' });
    const records = out.payload as Array<Record<string, unknown>>;
    expect(records.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(Object.keys(records[0] as object)).toEqual(['id', 'text', 'author', 'threadId', 'created_at', 'updated_at']);
    expect(out.extras).toEqual({ filtered: 5, display: 3, limit: 3, offset: 0 });
    expect(out.intent).toBeUndefined();
  });

  it('selects top-level keys with null data keys, id always, missing keys as null', async () => {
    const { payload } = await h.run({ intent: 'retrieve', filter: { id__in: [1, 3] } }, { threadId: null, created_at: null });
    expect(payload).toEqual([
      { id: 1, threadId: 'T1', created_at: expect.any(String) },
      { id: 3, threadId: null, created_at: expect.any(String) },
    ]);
  });

  it('refuses a selection value other than null', async () => {
    expect((await h.fails({ intent: 'retrieve' }, { author: { name: null } })).code).toBe('invalid_request');
  });

  it('searches every string value at any depth, case-insensitively', async () => {
    expect(await ids(h, { search: { value: 'ann' } })).toEqual([2, 4]);
    expect(await ids(h, { search: { value: 'zebra' } })).toEqual([4]);
    expect(await ids(h, { search: { value: 'T1' } })).toEqual([1, 2]);
    expect(await ids(h, { search: { value: '%' } })).toEqual([]);
    expect(await ids(h, { search: { value: '' }, limit: 5 })).toEqual([1, 2, 3, 4, 5]);
    // Keys are not values: "threadId" appears only as a key.
    expect(await ids(h, { search: { value: 'threadid' } })).toEqual([]);
  });

  it('orders by nested paths, descending with -, then by id ascending', async () => {
    expect(await ids(h, { ordering: ['author.name'], limit: 5 })).toEqual([2, 4, 1, 3, 5]);
    expect(await ids(h, { ordering: ['-author.rank'], limit: 5 })).toEqual([5, 1, 3, 2, 4]);
    expect(await ids(h, { ordering: ['author.name', '-author.rank'], limit: 5 })).toEqual([2, 4, 1, 3, 5]);
    expect(await ids(h, { ordering: ['-id'], limit: 5 })).toEqual([5, 4, 3, 2, 1]);
    expect(await ids(h, { ordering: ['-created_at'], limit: 5 })).toHaveLength(5);
  });

  it('pages with limit and offset and counts filtered', async () => {
    let out = await h.run({ intent: 'retrieve', limit: 2, offset: 2 });
    expect((out.payload as Array<{ id: number }>).map((r) => r.id)).toEqual([3, 4]);
    expect(out.extras).toEqual({ filtered: 5, display: 2, limit: 2, offset: 2 });
    out = await h.run({ intent: 'retrieve', limit: 0, draw: 9 });
    expect(out.payload).toEqual([]);
    expect(out.extras).toEqual({ filtered: 5, display: 0, limit: 0, offset: 0, draw: 9 });
    // A short first page tells the total without a count statement.
    out = await h.run({ intent: 'retrieve', filter: { threadId: 'T1' } });
    expect(out.extras).toMatchObject({ filtered: 2, display: 2 });
    expect(out.queries).toBe(1);
  });

  it('clamps a limit above the maximum and says so', async () => {
    const out = await h.run({ intent: 'retrieve', limit: 50 });
    expect(out.extras).toMatchObject({ limit: 5, display: 5, notices: ['limit 50 is above the maximum of 5; it was clamped to 5'] });
  });

  it('caches a repeated retrieve per caller until the collection changes', async () => {
    const query = { intent: 'retrieve', cache: { enabled: true }, filter: { threadId: 'T1' } };
    expect((await h.run(query)).extras).toMatchObject({ cached: false });
    const hit = await h.run({ ...query, draw: 4 });
    expect(hit.extras).toMatchObject({ cached: true, filtered: 2, draw: 4 });
    expect(hit.queries).toBe(0);
    h.user = { id: 8, username: 'bob', roles: [], isActive: true };
    expect((await h.run(query)).extras).toMatchObject({ cached: false });
    await h.run({ intent: 'create' }, { threadId: 'T1' });
    const after = await h.run(query);
    expect(after.extras).toMatchObject({ cached: false, filtered: 3 });
  });

  it('applies row scopes as OR-ed conditions', async () => {
    h.access.set('retrieve', { scopes: [{ 'author.name': 'Ann' }, { threadId: 'T2' }] });
    expect(await ids(h, { limit: 5 })).toEqual([2, 4, 5]);
    h.access.set('retrieve', { scopes: [] });
    expect(await ids(h, {})).toEqual([]);
  });

  it('refuses groupBy rather than ignoring it', async () => {
    expect((await h.fails({ intent: 'retrieve', groupBy: ['threadId'] })).code).toBe('invalid_request');
  });
});

describe('retrieveOne', () => {
  it('answers one record, reported as retrieve, by id or any document path', async () => {
    const byId = await h.run({ intent: 'retrieveOne', uniqueObject: { id: 3 } });
    expect(byId.intent).toBe('retrieve');
    expect(byId.payload).toMatchObject({ id: 3, text: 'Über' });
    const byPath = await h.run({ intent: 'retrieve_one', uniqueObject: { 'author.name': 'carl' } }, { text: null });
    expect(byPath.payload).toEqual({ id: 5, text: 'last' });
  });

  it('is not_found for no match or a match outside the scope, invalid_request when not unique', async () => {
    expect((await h.fails({ intent: 'retrieveOne', uniqueObject: { id: 99 } })).code).toBe('not_found');
    expect((await h.fails({ intent: 'retrieveOne', uniqueObject: { 'author.name': 'bob' } })).code).toBe('invalid_request');
    expect((await h.fails({ intent: 'retrieveOne' })).code).toBe('invalid_request');
    h.access.set('retrieve', { scopes: [{ 'author.name': 'Ann' }] });
    expect((await h.fails({ intent: 'retrieveOne', uniqueObject: { id: 1 } })).code).toBe('not_found');
  });
});

describe('count', () => {
  it('counts with the same filter, exclude, search and scope as retrieve', async () => {
    expect((await h.run({ intent: 'count' })).payload).toEqual({ count: 5 });
    expect((await h.run({ intent: 'count', filter: { 'author.rank__gte': 2 }, exclude: { threadId: 'T2' } })).payload).toEqual({ count: 2 });
    expect((await h.run({ intent: 'count', search: { value: 'ÜB' } })).payload).toEqual({ count: 1 });
    h.access.set('retrieve', { scopes: [{ threadId: 'T1' }] });
    expect((await h.run({ intent: 'count' })).payload).toEqual({ count: 2 });
    expect(h.checks.at(-1)).toBe('retrieve');
  });
});

describe('errors', () => {
  it('answers unknown_namespace, unknown_intent and propagates a denial', async () => {
    expect((await h.fails({ intent: 'retrieve', namespace: 'chat.Nope' })).code).toBe('unknown_namespace');
    expect((await h.fails({ intent: 'explode' })).code).toBe('unknown_intent');
    h.access.set('*', { deny: 'forbidden' });
    expect((await h.fails({ intent: 'retrieve' })).code).toBe('forbidden');
    h.access.set('*', { deny: 'unauthenticated' });
    expect((await h.fails({ intent: 'count' })).code).toBe('unauthenticated');
  });
});
