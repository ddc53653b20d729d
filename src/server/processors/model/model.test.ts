import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, testApp, writeWorkspace, type TestApp } from '../../testing/fixture.ts';

const meta = (intent: string, extra: Record<string, unknown> = {}) => ({ namespace: 'lib.Book', intent, ...extra });
const books = (extra: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) => ({ __meta__: meta('retrieve', extra), ...fields });

let t: TestApp;

beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace(LIBRARY_WORKSPACE) });
  const authors = ['Le Guin', 'Borges', 'Calvino'];
  for (const name of authors) {
    const res = await t.post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name, country: name === 'Borges' ? 'AR' : null });
    expect(res.status).toBe(200);
  }
  const rows: Array<Record<string, unknown>> = [
    { title: 'The Dispossessed', pages: 387, rating: 4.5, author: 1, status: 'published', tags: ['sf'], publishedAt: '1974-05-01T00:00:00Z' },
    { title: 'Ficciones', pages: 174, rating: 4.8, author: 2, status: 'published', tags: { camelKey: 1 } },
    { title: 'Invisible Cities', pages: 165, rating: null, author: 3, status: 'draft' },
    { title: '100% Literal_Title', pages: null, author: null },
    { title: 'the lathe of heaven', pages: 184, rating: 4.1, author: 1, in_print: false },
    { title: 'Labyrinths', pages: 251, rating: 4.6, author: 2, status: 'published' },
    { title: 'Ώmega unicode', pages: 10, author: 3 },
  ];
  for (const row of rows) {
    const res = await t.post({ __meta__: meta('create'), ...row });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
});

afterAll(() => t.close());

const ids = (body: any) => (body.__payload__ as Array<{ id: number }>).map((r) => r.id);

describe('retrieve', () => {
  it('answers the envelope with default limit, filtered/display/queries, and id tie-break', async () => {
    const res = await t.post(books({ ordering: ['-status'] }, { title: null }));
    expect(res.status).toBe(200);
    expect(res.body.__intent__).toBe('retrieve');
    expect(res.body.__errors__).toBeNull();
    expect(res.body.__system__).toBeNull();
    expect(res.body.__extras__).toMatchObject({ filtered: 7, display: 5, limit: 5, offset: 0 });
    expect(res.body.__extras__.queries).toBe(2);
    // published first (descending), then id ascending within the same status
    expect(ids(res.body)).toEqual([1, 2, 6, 3, 4]);
    expect(Object.keys(res.body.__payload__[0])).toEqual(['id', 'title']);
  });

  it('returns every readable field but never writeOnly ones, and converts types', async () => {
    const res = await t.post(books({ filter: { id: 2 } }));
    const [book] = res.body.__payload__;
    expect(book).toMatchObject({ id: 2, title: 'Ficciones', in_print: true, author: 2, tags: { camelKey: 1 }, pages: 174 });
    expect(book).not.toHaveProperty('secret_note');
    expect(typeof book.created_at).toBe('string');
  });

  it('asking for a writeOnly field is unknown_field', async () => {
    const res = await t.post(books({}, { secret_note: null }));
    expect(res.status).toBe(400);
    expect(res.body.__errors__[0]).toMatchObject({ code: 'unknown_field', field: 'secret_note' });
    expect(res.body.__payload__).toBeNull();
  });

  it('applies every lookup, with . and __ paths and camelCase keys', async () => {
    const cases: Array<[Record<string, unknown>, number[]]> = [
      [{ pages__gte: 250 }, [1, 6]],
      [{ pages__gt: 251 }, [1]],
      [{ pages__lt: 170 }, [3, 7]],
      [{ pages__lte: 165 }, [3, 7]],
      [{ pages__range: [165, 184] }, [2, 3, 5]],
      [{ pages__in: [174, 10] }, [2, 7]],
      [{ pages__isnull: true }, [4]],
      [{ pages: null }, [4]],
      [{ pages__ne: 174 }, [1, 3, 4, 5, 6, 7]],
      [{ title__contains: 'the' }, [5]],
      [{ title__icontains: 'THE' }, [1, 5]],
      [{ title__startswith: 'The' }, [1]],
      [{ title__istartswith: 'the' }, [1, 5]],
      [{ title__endswith: 'Cities' }, [3]],
      [{ title__iendswith: 'CITIES' }, [3]],
      [{ title__iexact: 'FICCIONES' }, [2]],
      [{ title__exact: 'ficciones' }, []],
      [{ title__contains: '%' }, [4]],
      [{ title__icontains: '_t' }, [4]],
      [{ title__contains: 'L*' }, []],
      [{ 'author.name': 'Borges' }, [2, 6]],
      [{ author__name__icontains: 'gUin' }, [1, 5]],
      [{ 'author.name__startswith': 'Cal' }, [3, 7]],
      [{ author__isnull: true }, [4]],
      [{ author__country: null }, [1, 3, 4, 5, 7]],
      [{ inPrint: false }, [5]],
      [{ status: 'published', rating__gte: 4.6 }, [2, 6]],
      [{ publishedAt__gte: '1970-01-01T00:00:00Z' }, [1]],
    ];
    for (const [filter, expected] of cases) {
      const res = await t.post(books({ filter, ordering: ['id'], limit: 20 }, { id: null }));
      expect(res.status, JSON.stringify(filter)).toBe(200);
      expect(ids(res.body), JSON.stringify(filter)).toEqual(expected);
    }
  });

  it('exclude removes matching records but keeps NULLs, and exclude null removes a field', async () => {
    const res = await t.post(books({ exclude: { pages__gte: 200 }, ordering: ['id'], limit: 20 }, {}));
    expect(ids(res.body)).toEqual([2, 3, 4, 5, 7]);
    const both = await t.post(books({ exclude: { status: 'published', pages__gt: 200 }, ordering: ['id'], limit: 20 }));
    expect(ids(both.body)).toEqual([2, 3, 4, 5, 7]);
    const omit = await t.post(books({ exclude: { rating: null }, limit: 1 }));
    expect(omit.body.__payload__[0]).not.toHaveProperty('rating');
    expect(omit.body.__payload__[0]).toHaveProperty('title');
  });

  it('search matches search fields case-insensitively; empty matches all', async () => {
    const res = await t.post(books({ search: { value: 'CITIES' } }, { title: null }));
    expect(ids(res.body)).toEqual([3]);
    const all = await t.post(books({ search: { value: '' }, limit: 20 }));
    expect(all.body.__extras__.filtered).toBe(7);
  });

  it('orders by nested paths with NULLs first ascending and last descending', async () => {
    const asc = await t.post(books({ ordering: ['author.name'], limit: 20 }, { id: null }));
    expect(ids(asc.body)).toEqual([4, 2, 6, 3, 7, 1, 5]);
    const desc = await t.post(books({ ordering: ['-author__name'], limit: 20 }, { id: null }));
    expect(ids(desc.body)).toEqual([1, 5, 3, 7, 2, 6, 4]);
    const rating = await t.post(books({ ordering: ['rating'], limit: 3 }, { id: null }));
    expect(ids(rating.body)).toEqual([3, 4, 7]);
  });

  it('pages with offset, clamps limit with a notice, counts with limit 0, echoes draw', async () => {
    const page = await t.post(books({ ordering: ['id'], limit: 2, offset: 2, draw: 7 }, { id: null }));
    expect(ids(page.body)).toEqual([3, 4]);
    expect(page.body.__extras__).toMatchObject({ filtered: 7, display: 2, limit: 2, offset: 2, draw: 7 });
    const clamped = await t.post(books({ limit: 5000 }));
    expect(clamped.body.__extras__.limit).toBe(20);
    expect(clamped.body.__extras__.notices[0]).toMatch(/clamped to 20/);
    const zero = await t.post(books({ limit: 0 }));
    expect(zero.body.__payload__).toEqual([]);
    expect(zero.body.__extras__.filtered).toBe(7);
  });

  it('selects nested references and reverse relations with one statement per level', async () => {
    const res = await t.post(
      { __meta__: { namespace: 'lib.Author', intent: 'retrieve', ordering: ['id'] }, name: null, books: { title: null, author: { name: null } } },
      { query: 'query_info_level=2' },
    );
    expect(res.status).toBe(200);
    const [leGuin] = res.body.__payload__;
    expect(leGuin.name).toBe('Le Guin');
    expect(leGuin.books.map((b: any) => b.title)).toEqual(['The Dispossessed', 'the lathe of heaven']);
    expect(leGuin.books[0].author).toEqual({ id: 1, name: 'Le Guin' });
    // page + books level + nested author level (the count is skipped: the page was short)
    expect(res.body.__extras__.queries).toBe(3);
    expect(res.body.__system__.queries).toBe(3);
    expect(res.body.__system__.sql).toHaveLength(3);
    expect(res.body.__system__.sql[1].sql).toContain('json_each');
    const ref = await t.post(books({ ordering: ['id'], limit: 20 }, { title: null, author: { name: null, country: null } }));
    expect(ref.body.__payload__[1].author).toEqual({ id: 2, name: 'Borges', country: 'AR' });
    expect(ref.body.__payload__[3].author).toBeNull();
  });

  it('groups with aggregates, ordering and filtered = number of groups', async () => {
    const res = await t.post(
      books({ groupBy: { by: ['status'], aggregates: { pages: { sum: 'pages' }, best: { max: 'rating' } } }, ordering: ['-count'] }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.__payload__).toEqual([
      { status: 'draft', count: 4, pages: 359, best: 4.1 },
      { status: 'published', count: 3, pages: 812, best: 4.8 },
    ]);
    expect(res.body.__extras__).toMatchObject({ filtered: 2, display: 2 });
    const nested = await t.post(books({ groupBy: ['author.name'], filter: { author__isnull: false } }));
    expect(nested.body.__payload__).toEqual([
      { 'author.name': 'Borges', count: 2 },
      { 'author.name': 'Calvino', count: 2 },
      { 'author.name': 'Le Guin', count: 2 },
    ]);
  });

  it('breaks ties between groups by their keys, so pages of groups are stable', async () => {
    const page = (offset: number) => t.post(books({ groupBy: ['author.name'], filter: { author__isnull: false }, ordering: ['-count'], limit: 1, offset }), { query: 'query_info_level=2' });
    const pages = await Promise.all([0, 1, 2].map(page));
    expect(pages.map((res) => res.body.__payload__[0]['author.name'])).toEqual(['Borges', 'Calvino', 'Le Guin']);
    expect(pages[0]!.body.__system__.sql[0].sql).toMatch(/ORDER BY c DESC, g0 ASC LIMIT/);
    const byAggregate = await t.post(books({ groupBy: { by: ['status', 'in_print'], aggregates: { n: { count: '*' } } }, ordering: ['-n', 'in_print'] }), { query: 'query_info_level=2' });
    expect(byAggregate.body.__system__.sql[0].sql).toMatch(/ORDER BY a0 DESC, g1 ASC, g0 ASC LIMIT/);
  });

  it('caches a repeated retrieve until the model changes', async () => {
    const query = books({ cache: { enabled: true }, filter: { status: 'draft' } }, { title: null });
    const first = await t.post(query);
    expect(first.body.__extras__.cached).toBe(false);
    const second = await t.post(query);
    expect(second.body.__extras__).toMatchObject({ cached: true, queries: 0 });
    expect(second.body.__payload__).toEqual(first.body.__payload__);
    await t.post({ __meta__: meta('update', { uniqueObject: { id: 3 } }), rating: 3.9 });
    const third = await t.post(query);
    expect(third.body.__extras__.cached).toBe(false);
  });

  it('answers the flat shape and only:data', async () => {
    const flat = await t.post(books({ limit: 1 }, { title: null }), { query: 'envelope=flat' });
    expect(flat.body).toMatchObject({ status: 'OK', errors: null, il8n: 'en', intent: 'retrieve', message: null, system_info: null });
    expect(flat.body.data).toHaveLength(1);
    const bare = await t.post(books({ limit: 1, render: 'only:data', ordering: ['id'] }, { title: null }));
    expect(bare.body).toEqual([{ id: 1, title: 'The Dispossessed' }]);
    const flatError = await t.post(books({ filter: { nope: 1 } }), { query: 'envelope=flat' });
    expect(flatError.status).toBe(400);
    expect(flatError.body).toMatchObject({ status: 'ERROR', data: null });
  });
});

describe('retrieveOne and count', () => {
  it('retrieveOne answers one record reported as retrieve; not_found and non-unique', async () => {
    const one = await t.post({ __meta__: meta('retrieve_one', { uniqueObject: { id: 2 } }), title: null });
    expect(one.body.__payload__).toEqual({ id: 2, title: 'Ficciones' });
    expect(one.body.__intent__).toBe('retrieve');
    const missing = await t.post({ __meta__: meta('retrieveOne', { uniqueObject: { id: 999 } }) });
    expect(missing.status).toBe(404);
    expect(missing.body.__errors__[0].code).toBe('not_found');
    const many = await t.post({ __meta__: meta('retrieveOne', { uniqueObject: { status: 'published' } }) });
    expect(many.status).toBe(400);
    expect(many.body.__errors__[0].code).toBe('invalid_request');
    const none = await t.post({ __meta__: meta('retrieveOne') });
    expect(none.status).toBe(400);
  });

  it('count uses the same filter semantics', async () => {
    const res = await t.post({ __meta__: meta('count', { filter: { status: 'published' } }) });
    expect(res.body.__payload__).toEqual({ count: 3 });
    expect(res.body.__intent__).toBe('count');
  });
});

describe('create, update, delete', () => {
  it('creates with defaults, auto timestamps, return restriction and id always present', async () => {
    const res = await t.post({ __meta__: meta('create', { return: { title: null, status: null } }), title: 'New' });
    expect(res.status).toBe(200);
    expect(res.body.__payload__).toEqual({ id: expect.any(Number), title: 'New', status: 'draft' });
    expect(res.body.__message__).toMatch(/Created lib.Book/);
    expect(res.body.__extras__.queries).toBeGreaterThan(0);
    await t.post({ __meta__: meta('delete', { uniqueObject: { id: res.body.__payload__.id } }) });
  });

  it('reports one validation_error per failing field, with 422', async () => {
    const res = await t.post({ __meta__: meta('create'), status: 'lost', pages: 'many', rating: 'x', in_print: 1, published_at: 'yesterday' });
    expect(res.status).toBe(422);
    const fields = res.body.__errors__.map((e: any) => [e.code, e.field]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ['validation_error', 'title'],
        ['validation_error', 'status'],
        ['validation_error', 'pages'],
        ['validation_error', 'rating'],
        ['validation_error', 'in_print'],
        ['validation_error', 'published_at'],
      ]),
    );
    const tooLong = await t.post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'x'.repeat(51) });
    expect(tooLong.status).toBe(422);
    const min = await t.post({ __meta__: meta('create'), title: 'a', pages: 0 });
    expect(min.body.__errors__[0]).toMatchObject({ field: 'pages', code: 'validation_error' });
    const badRef = await t.post({ __meta__: meta('create'), title: 'a', author: 999 });
    expect(badRef.status).toBe(422);
    expect(badRef.body.__errors__[0].field).toBe('author');
  });

  it('unknown fields are unknown_field; unique violations are conflict', async () => {
    const unknown = await t.post({ __meta__: meta('create'), title: 'x', nope: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.__errors__[0]).toMatchObject({ code: 'unknown_field', field: 'nope' });
    const dup = await t.post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'Borges' });
    expect(dup.status).toBe(409);
    expect(dup.body.__errors__[0]).toMatchObject({ code: 'conflict', field: 'name' });
  });

  it('updates the one record named and returns it; writeOnly is writable but never returned', async () => {
    const res = await t.post({ __meta__: meta('update', { uniqueObject: { title: 'Labyrinths' }, return: { pages: null } }), pages: 252, secret_note: 's3cret' });
    expect(res.status).toBe(200);
    expect(res.body.__payload__).toEqual({ id: 6, pages: 252 });
    expect(JSON.stringify(res.body)).not.toContain('s3cret');
    const missing = await t.post({ __meta__: meta('update', { uniqueObject: { id: 12345 } }), pages: 1 });
    expect(missing.status).toBe(404);
  });

  it('deletes and answers the id; referenced rows of a nullable ref are released', async () => {
    const author = await t.post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'Temp' });
    const id = author.body.__payload__.id;
    const book = await t.post({ __meta__: meta('create'), title: 'Orphan', author: id });
    const res = await t.post({ __meta__: { namespace: 'lib.Author', intent: 'delete', uniqueObject: { id } } });
    expect(res.body.__payload__).toEqual({ id });
    const after = await t.post({ __meta__: meta('retrieveOne', { uniqueObject: { id: book.body.__payload__.id } }), author: null });
    expect(after.body.__payload__.author).toBeNull();
  });
});

describe('errors', () => {
  it('refuses bad __meta__ keys and shapes with invalid_request', async () => {
    const cases: Array<[unknown, string]> = [
      [{ __meta__: { namespace: 'lib.Book', intent: 'retrieve', limti: 3 } }, 'invalid_request'],
      [{ __meta__: { namespace: 'lib.Book', intent: 'retrieve', limit: '10' } }, 'invalid_request'],
      [{ __meta__: { namespace: 'lib.Book', intent: 'retrieve', limit: -1 } }, 'invalid_request'],
      [{ __meta__: { namespace: 'lib.Book', intent: 'retrieve', ordering: 'title' } }, 'invalid_request'],
      [{ __meta__: { namespace: 'lib.Book', intent: 'retrieve', filter: [] } }, 'invalid_request'],
      [{ __meta__: { namespace: 'lib.Book', intent: 'retrieve', schema: 'sql' } }, 'invalid_request'],
      [{ __meta__: { namespace: 'lib.Book' } }, 'invalid_request'],
      [{ __meta__: { namespace: 'lib.Book', intent: 'retrieve', filter: { pages: 'ten' } } }, 'invalid_request'],
      [{ __meta__: { namespace: 'lib.Book', intent: 'retrieve', filter: { pages__in: 3 } } }, 'invalid_request'],
    ];
    for (const [body, code] of cases) {
      const res = await t.post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.__errors__[0].code, JSON.stringify(body)).toBe(code);
    }
  });

  it('names the unknown field or lookup with its path', async () => {
    const field = await t.post(books({ filter: { priorty: 1 } }));
    expect(field.body.__errors__[0]).toMatchObject({ code: 'unknown_field', field: 'priorty', path: ['filter', 'priorty'] });
    // `field` is the field (docs/protocol.md "Errors"), `path` keeps the key as sent, lookup included.
    const withLookup = await t.post(books({ filter: { priorty__gte: 1 } }));
    expect(withLookup.body.__errors__[0]).toMatchObject({ code: 'unknown_field', field: 'priorty', path: ['filter', 'priorty__gte'] });
    const throughRef = await t.post(books({ exclude: { author__nmae__icontains: 'x' } }));
    expect(throughRef.body.__errors__[0]).toMatchObject({ code: 'unknown_field', field: 'author.nmae', path: ['exclude', 'author__nmae__icontains'] });
    const lookup = await t.post(books({ filter: { pages__around: 1 } }));
    expect(lookup.body.__errors__[0]).toMatchObject({ code: 'invalid_lookup', field: 'pages', path: ['filter', 'pages__around'] });
    const textLookup = await t.post(books({ filter: { pages__contains: 1 } }));
    expect(textLookup.body.__errors__[0]).toMatchObject({ code: 'invalid_lookup', field: 'pages', path: ['filter', 'pages__contains'] });
    const wrongValue = await t.post(books({ filter: { pages__in: 3 } }));
    expect(wrongValue.body.__errors__[0]).toMatchObject({ code: 'invalid_request', field: 'pages', path: ['filter', 'pages__in'] });
    const order = await t.post(books({ ordering: ['-nope'] }));
    expect(order.body.__errors__[0]).toMatchObject({ code: 'unknown_field', path: ['ordering', 0] });
  });

  it('answers unknown_namespace 404 and unknown_intent 400', async () => {
    const ns = await t.post({ __meta__: { namespace: 'lib.Nope', intent: 'retrieve' } });
    expect(ns.status).toBe(404);
    expect(ns.body.__errors__[0].code).toBe('unknown_namespace');
    const intent = await t.post({ __meta__: { namespace: 'lib.Book', intent: 'explode' } });
    expect(intent.status).toBe(400);
    expect(intent.body.__errors__[0].code).toBe('unknown_intent');
  });

  it('answers invalid_json for bad or too deep JSON, 415 for other content types, 413 for big bodies', async () => {
    const bad = await t.post('{"__meta__": ');
    expect(bad.status).toBe(400);
    expect(bad.body.__errors__[0].code).toBe('invalid_json');
    const deep = await t.post('['.repeat(65) + ']'.repeat(65));
    expect(deep.body.__errors__[0].code).toBe('invalid_json');
    const ok = await t.post('['.repeat(64) + ']'.repeat(64));
    expect(ok.body.__errors__[0].code).toBe('invalid_request');
    const text = await t.app.inject({ method: 'POST', url: '/jql', headers: { 'content-type': 'text/plain' }, payload: 'hi' });
    expect(text.statusCode).toBe(415);
    expect(JSON.parse(text.body).__errors__[0].code).toBe('unsupported_media_type');
    const big = await t.app.inject({ method: 'POST', url: '/jql', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ x: 'y'.repeat(11 * 1024 * 1024) }) });
    expect(big.statusCode).toBe(413);
    expect(JSON.parse(big.body).__errors__[0].code).toBe('payload_too_large');
  });
});

describe('cache and draw', () => {
  it('a cache hit echoes the draw of the request that hit it', async () => {
    await t.post(books({ cache: { enabled: true }, draw: 1, filter: { status: 'published' } }));
    const hit = await t.post(books({ cache: { enabled: true }, draw: 2, filter: { status: 'published' } }));
    expect(hit.body.__extras__).toMatchObject({ cached: true, draw: 2 });
  });
});
