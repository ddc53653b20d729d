import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace(LIBRARY_WORKSPACE) });
  await t.post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'Borges' });
});
afterAll(() => t.close());

const author = (intent: string, extra: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
  __meta__: { namespace: 'lib.Author', intent, ...extra },
  ...data,
});

describe('multi-query', () => {
  it('answers each name on its own, in document order, with 200 even when one fails', async () => {
    const res = await t.post({
      authors: author('retrieve', { limit: 10 }, { name: null }),
      count: author('count'),
      broken: author('retrieve', { filter: { nope: 1 } }),
    });
    expect(res.status).toBe(200);
    expect(res.body.__intent__).toBe('multi');
    expect(Object.keys(res.body.__payload__)).toEqual(['authors', 'count', 'broken']);
    expect(res.body.__payload__.authors).toMatchObject({ data: [{ id: 1, name: 'Borges' }], errors: null, intent: 'retrieve', notices: null });
    expect(res.body.__payload__.authors.extras).toMatchObject({ filtered: 1, display: 1 });
    expect(res.body.__payload__.count.data).toEqual({ count: 1 });
    expect(res.body.__payload__.broken).toMatchObject({ data: null, errors: [{ code: 'unknown_field' }] });
  });

  it('puts each subquery notice in its own notices key', async () => {
    const res = await t.post({ big: author('retrieve', { limit: 999 }) });
    expect(res.body.__payload__.big.notices[0]).toMatch(/clamped/);
    expect(res.body.__payload__.big.extras.notices).toBeUndefined();
  });

  it('atomic mode rolls back every subquery when one fails', async () => {
    const res = await t.post({
      __root_meta__: { atomic: true },
      first: author('create', {}, { name: 'Calvino' }),
      second: author('create', {}, { name: 'Borges' }),
    });
    expect(res.status).toBe(200);
    expect(res.body.__payload__.first.errors[0].code).toBe('rolled_back');
    expect(res.body.__payload__.first).toMatchObject({ data: null, message: null });
    expect(res.body.__payload__.second.errors[0].code).toBe('conflict');
    const count = await t.post(author('count', { filter: { name: 'Calvino' } }));
    expect(count.body.__payload__.count).toBe(0);
  });

  it('a rolled-back subquery keeps only {queries} of its extras, not what described its undone answer', async () => {
    const res = await t.post({
      __root_meta__: { atomic: true },
      read: author('retrieve', { limit: 3 }),
      bad: author('create', {}, { name: 'Borges' }),
    });
    expect(res.body.__payload__.read.errors[0].code).toBe('rolled_back');
    expect(res.body.__payload__.read.data).toBeNull();
    expect(res.body.__payload__.read.extras).toEqual({ queries: expect.any(Number) });
  });

  it('without atomic, a failing subquery leaves the others written', async () => {
    const res = await t.post({ ok: author('create', {}, { name: 'Pessoa' }), bad: author('create', {}, { name: 'Borges' }) });
    expect(res.body.__payload__.ok.errors).toBeNull();
    const count = await t.post(author('count', { filter: { name: 'Pessoa' } }));
    expect(count.body.__payload__.count).toBe(1);
  });

  it('refuses an empty multi-query or a bad __root_meta__ with 400', async () => {
    expect((await t.post({})).status).toBe(400);
    expect((await t.post({ __root_meta__: { atomic: 'yes' }, a: author('count') })).status).toBe(400);
    expect((await t.post({ __root_meta__: { colour: 1 }, a: author('count') })).status).toBe(400);
    expect((await t.post([1, 2])).status).toBe(400);
  });

  it('sums diagnostics over subqueries', async () => {
    const res = await t.post({ a: author('count'), b: author('count') }, { query: 'query_info_level=2' });
    expect(res.body.__system__.queries).toBe(2);
    expect(res.body.__system__.sql).toHaveLength(2);
    expect(res.body.__system__.sql[0]).toMatchObject({ sql: expect.stringContaining('count(*)'), params: [] });
  });
});

describe('diagnostics and health', () => {
  it('query_info_level 1 gives count and time; a bad level is invalid_request', async () => {
    const res = await t.post(author('retrieve'), { query: 'query_info_level=1' });
    expect(res.body.__system__).toEqual({ queries: 1, time_ms: expect.any(Number) });
    const alias = await t.post(author('retrieve'), { query: 'db_query_info_level=2' });
    expect(alias.body.__system__.sql[0].params).toEqual([5, 0]);
    const bad = await t.post(author('retrieve'), { query: 'query_info_level=9' });
    expect(bad.status).toBe(400);
  });

  it('answers /healthz', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    // No `watch` key: this server does not watch its workspace file.
    expect(JSON.parse(res.body)).toEqual({ status: 'ok', version: expect.any(String), workspace: { digest: expect.stringMatching(/^[0-9a-f]{64}$/) } });
  });
});

describe('rate limit', () => {
  it('answers 429 rate_limited past the workspace limit, with Retry-After', async () => {
    const limited = await testApp({ workspace: writeWorkspace({ ...LIBRARY_WORKSPACE, limits: { requestsPerMinute: 2 } }) });
    try {
      const query = { __meta__: { namespace: 'lib.Author', intent: 'count' } };
      expect((await limited.post(query)).status).toBe(200);
      expect((await limited.post(query)).status).toBe(200);
      const third = await limited.post(query);
      expect(third.status).toBe(429);
      expect(third.body.__errors__[0].code).toBe('rate_limited');
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
