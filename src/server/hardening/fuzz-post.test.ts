// Property-based fuzzing of POST /jql: malformed JSON, deep nesting, huge strings and arrays, wrong
// types in every __meta__ key, random lookups and field paths. Every answer is a documented error
// code with its status (or a success), never a 500; the server stays up and its memory bounded.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';
import { expectDocumented, parseBody, runs } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  const open = { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] };
  t = await testApp({ workspace: writeWorkspace({ ...LIBRARY_WORKSPACE, apps: { ...LIBRARY_WORKSPACE.apps, chat: { collections: { Message: { permissions: open } } } } }) });
  await t.post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'Borges' });
  await t.post({ __meta__: { namespace: 'lib.Book', intent: 'create' }, title: 'Ficciones', author: 1, pages: 200 });
});
afterAll(() => t.close());

async function send(payload: string, contentType = 'application/json') {
  const res = await t.app.inject({ method: 'POST', url: '/jql', headers: { 'content-type': contentType }, payload });
  return { status: res.statusCode, body: parseBody(res.body) };
}

const META_KEYS = ['namespace', 'intent', 'schema', 'authenticationClass', 'uniqueObject', 'filter', 'exclude', 'search', 'ordering', 'cache', 'limit', 'offset', 'draw', 'groupBy', 'return', 'sideEffects', 'render', 'debug', 'comment', 'unknownKey'];
const FIELDS = ['text', 'author.name.first', 'a.b.c.d.e', 'id', 'title', 'status', 'pages', 'rating', 'in_print', 'author', 'tags', 'published_at', 'secret_note', 'created_at', 'author.name', 'author__country', 'author.books', 'nope', ''];
const LOOKUPS = ['', '__exact', '__iexact', '__contains', '__icontains', '__startswith', '__iendswith', '__gt', '__gte', '__lt', '__lte', '__in', '__range', '__isnull', '__ne', '__regex', '__'];
const path = fc.oneof(fc.tuple(fc.constantFrom(...FIELDS), fc.constantFrom(...LOOKUPS)).map(([f, l]) => f + l), fc.string({ maxLength: 20 }));
const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(null, true, 0, -1, 1e308, '', '%', '_', "'", '"', [], [1, 2], ['a', 'b'], {}));
const conditions = fc.dictionary(path, value, { maxKeys: 4 });
const metaValue = (key: string) => {
  switch (key) {
    case 'namespace':
      return fc.constantFrom('lib.Book', 'lib.Author', 'lib.Nope', 'chat.Message', 'system.User', 'system.Schema', 'x', '.', 'lib.Book.x', '');
    case 'intent':
      return fc.constantFrom('retrieve', 'retrieveOne', 'retrieve_one', 'count', 'create', 'update', 'delete', 'describe', 'login', 'nope', '');
    case 'schema':
      return fc.constantFrom('model', 'nosql', 'controller', 'sql');
    case 'filter':
    case 'exclude':
    case 'uniqueObject':
      return fc.oneof(conditions, value);
    case 'ordering':
    case 'groupBy':
      return fc.oneof(fc.array(fc.oneof(path, path.map((p) => `-${p}`)), { maxLength: 3 }), value);
    default:
      return value;
  }
};
const meta = fc
  .subarray(META_KEYS, { minLength: 0, maxLength: 8 })
  .chain((keys) => fc.record(Object.fromEntries(['namespace', 'intent', ...keys].map((k) => [k, metaValue(k)])) as Record<string, fc.Arbitrary<unknown>>));
const query = fc.tuple(meta, fc.dictionary(path, fc.oneof(fc.constant(null), value), { maxKeys: 3 })).map(([m, data]) => ({ ...data, __meta__: m }));

describe('POST /jql fuzzing', () => {
  it('answers random queries with documented codes, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(query, fc.dictionary(fc.string({ maxLength: 8 }), query, { maxKeys: 3 })), async (document) => {
        expectDocumented(await send(JSON.stringify(document)), JSON.stringify(document));
      }),
      { numRuns: runs(300, 5000) },
    );
  });

  it('answers malformed JSON and non-JSON bodies with documented codes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'), async (text, type) => {
        expectDocumented(await send(text, type), JSON.stringify(text));
      }),
      { numRuns: runs(200, 3000) },
    );
    for (const text of ['', '{', '{"__meta__":', 'null', '[]', '"x"', '1', '{"__meta__": 1}', '{"__proto__": {"__meta__": {}}}', '\u0000', '{"a":1,"a":2}']) {
      expectDocumented(await send(text), JSON.stringify(text));
    }
  });

  it('refuses deep nesting, and takes huge strings and arrays without failing', async () => {
    for (const depth of [63, 65, 1000, 100_000]) {
      const codes = expectDocumented(await send(`${'['.repeat(depth)}${']'.repeat(depth)}`), `depth ${depth}`);
      if (depth > 64) expect(codes).toEqual(['invalid_json']);
    }
    const deepFilter = { __meta__: { namespace: 'lib.Book', intent: 'retrieve', filter: JSON.parse(`${'{"a":'.repeat(60)}1${'}'.repeat(60)}`) } };
    expectDocumented(await send(JSON.stringify(deepFilter)), 'deep filter');
    const big = 'x'.repeat(2 * 1024 * 1024);
    for (const document of [
      { __meta__: { namespace: 'lib.Book', intent: 'retrieve', search: { value: big } } },
      { __meta__: { namespace: 'lib.Book', intent: 'retrieve', filter: { title__icontains: big } } },
      { __meta__: { namespace: 'lib.Book', intent: 'retrieve', filter: { id__in: Array.from({ length: 200_000 }, (_, i) => i) } } },
      { __meta__: { namespace: 'lib.Book', intent: 'retrieve', ordering: Array.from({ length: 10_000 }, () => 'title') } },
      { __meta__: { namespace: 'lib.Book', intent: 'create' }, title: big },
      { __meta__: { namespace: 'lib.Book', intent: 'retrieve', comment: big } },
    ]) {
      const answer = await send(JSON.stringify(document));
      expectDocumented(answer, `huge ${JSON.stringify(document).slice(0, 100)}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    // Parts too large for SQLite to compile (2,000 ORDER BY terms, expressions 1,000 deep) are refused
    // as invalid_request before any SQL is built; they were internal errors once.
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`a${i}`, i]));
    for (const meta of [
      { namespace: 'lib.Book', intent: 'retrieve', ordering: Array.from({ length: 10_000 }, () => 'title') },
      { namespace: 'lib.Book', intent: 'retrieve', groupBy: Array.from({ length: 3000 }, () => 'title') },
      { namespace: 'lib.Book', intent: 'retrieve', groupBy: { by: ['title'], aggregates: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`n${i}`, { count: '*' }])) } },
      { namespace: 'lib.Book', intent: 'retrieve', filter: many },
      { namespace: 'lib.Book', intent: 'retrieve', exclude: many },
      { namespace: 'lib.Book', intent: 'retrieveOne', uniqueObject: many },
    ]) {
      expect(expectDocumented(await send(JSON.stringify({ __meta__: meta })), Object.keys(meta).join())).toEqual(['invalid_request']);
    }
    // A text to match longer than SQLite's pattern limit allows is refused before it meets a row.
    for (const meta of [{ search: { value: big } }, { filter: { title__icontains: big } }, { filter: { title__contains: big } }, { exclude: { title__iendswith: big } }]) {
      expect(expectDocumented(await send(JSON.stringify({ __meta__: { namespace: 'lib.Book', intent: 'retrieve', ...meta } })), 'long pattern')).toEqual(['invalid_request']);
    }
    // Over the body limit (10 MiB by default).
    expect((await send(JSON.stringify({ x: 'y'.repeat(11 * 1024 * 1024) }))).status).toBe(413);
  });

  it('keeps its memory bounded and stays up', async () => {
    const before = process.memoryUsage().rss;
    for (let i = 0; i < runs(200, 5000); i++) {
      await send(JSON.stringify({ __meta__: { namespace: 'lib.Book', intent: 'retrieve', search: { value: `term ${i}` }, filter: { [`title__icontains`]: 'x'.repeat(10_000) } } }));
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
    // Still answering, and the first book is still there (random creates may have added others).
    const res = await t.post({ __meta__: { namespace: 'lib.Book', intent: 'retrieveOne', uniqueObject: { id: 1 } }, title: null });
    expect(res.body.__payload__).toEqual({ id: 1, title: 'Ficciones' });
  });
});
