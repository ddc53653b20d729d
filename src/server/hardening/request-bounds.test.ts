// Issue 15.3 and 15.9 over a real socket: a multi-query holds at most limits.maxQueriesPerRequest
// subqueries, names beginning with `__` are reserved (for subqueries and aggregates), and a stored
// value is at most limits.maxValueBytes. Each refusal happens before anything runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, writeWorkspace } from '../testing/fixture.ts';
import { startFileServer, type FileServer } from '../testing/file-server.ts';

const KiB = 1024;
const WORKSPACE = {
  ...LIBRARY_WORKSPACE,
  limits: { ...LIBRARY_WORKSPACE.limits, maxQueriesPerRequest: 8, maxValueBytes: 4 * KiB },
  apps: { ...LIBRARY_WORKSPACE.apps, chat: { collections: { Note: { permissions: { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'] } } } } },
};

let s: FileServer;
beforeAll(async () => {
  s = await startFileServer({ workspace: writeWorkspace(WORKSPACE) });
});
afterAll(() => s.close());

/** POSTs raw JSON text: an object literal with a `__proto__` key would set a prototype instead. */
async function postText(text: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  return { status: res.status, body: await res.json() };
}

const create = (title: string) => ({ __meta__: { namespace: 'lib.Book', intent: 'create', return: { id: null } }, title });
const books = async (title: string): Promise<number> =>
  (await s.post({ __meta__: { namespace: 'lib.Book', intent: 'count', filter: { title } } })).body.__payload__.count;

describe('limits.maxQueriesPerRequest', () => {
  it('runs a multi-query at the limit and refuses one past it before any subquery runs', async () => {
    const atLimit = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`q${i}`, i === 0 ? create('at the limit') : { __meta__: { namespace: 'lib.Book', intent: 'count' } }]));
    const ok = await s.post(atLimit);
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body.__payload__)).toHaveLength(8);
    const over = await s.post({ ...atLimit, q0: create('past the limit'), q8: { __meta__: { namespace: 'lib.Book', intent: 'count' } } });
    expect(over.status).toBe(400);
    expect(over.body.__errors__[0]).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('limits.maxQueriesPerRequest') });
    expect(await books('past the limit')).toBe(0);
  });

  it('defaults to 64', async () => {
    const demo = await startFileServer();
    try {
      const count = { __meta__: { namespace: 'tickets.Ticket', intent: 'count' } };
      expect((await demo.post(Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`q${i}`, count])))).status).toBe(200);
      const res = await demo.post(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`q${i}`, count])));
      expect(res.status).toBe(400);
      expect(res.body.__errors__[0].message).toMatch(/at most 64 subqueries/);
    } finally {
      await demo.close();
    }
  });
});

describe('reserved names', () => {
  it('refuses a subquery named __proto__ (or any __ name) with invalid_request, and its sibling create never commits', async () => {
    for (const name of ['__proto__', '__payload__', '__x']) {
      const text = `{"made": ${JSON.stringify(create(`reserved ${name}`))}, ${JSON.stringify(name)}: {"__meta__": {"namespace": "lib.Book", "intent": "count"}}}`;
      const res = await postText(text);
      expect(res.status, name).toBe(400);
      expect(res.body.__errors__).toEqual([expect.objectContaining({ code: 'invalid_request', path: [name] })]);
      expect(await books(`reserved ${name}`), name).toBe(0);
    }
    // __root_meta__ is the one name of that form a multi-query may hold.
    const atomic = await s.post({ __root_meta__: { atomic: true }, made: create('with root meta') });
    expect(atomic.body.__payload__.made.errors).toBeNull();
  });

  it('refuses an aggregate named __proto__ instead of dropping it from the rows', async () => {
    const text = '{"__meta__": {"namespace": "lib.Book", "intent": "retrieve", "groupBy": {"by": ["status"], "aggregates": {"__proto__": {"max": "pages"}}}}}';
    const res = await postText(text);
    expect(res.status).toBe(400);
    expect(res.body.__errors__[0]).toMatchObject({ code: 'invalid_request', path: ['__meta__', 'group_by', 'aggregates', '__proto__'] });
  });
});

describe('limits.maxValueBytes', () => {
  it('refuses string, text and json values over the limit with validation_error, one per field, and writes nothing', async () => {
    const total = async (): Promise<number> => (await s.post({ __meta__: { namespace: 'lib.Book', intent: 'count' } })).body.__payload__.count;
    const before = await total();
    const big = 'x'.repeat(4 * KiB + 1);
    const res = await s.post({ __meta__: { namespace: 'lib.Book', intent: 'create' }, title: big, tags: { notes: 'é'.repeat(2100) } });
    expect(res.status).toBe(422);
    expect(res.body.__errors__).toEqual([
      expect.objectContaining({ code: 'validation_error', path: ['title'], message: expect.stringContaining('limits.maxValueBytes') }),
      expect.objectContaining({ code: 'validation_error', path: ['tags'] }),
    ]);
    expect(await total()).toBe(before);
    // At the limit, in UTF-8 bytes, it is stored.
    const fits = await s.post({ __meta__: { namespace: 'lib.Book', intent: 'create', return: { id: null } }, title: 'é'.repeat(2 * KiB) });
    expect(fits.status).toBe(200);
  });

  it('bounds NoSQL documents, on create and after an update merges them', async () => {
    const note = (intent: string, data: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({ __meta__: { namespace: 'chat.Note', schema: 'nosql', intent, ...meta }, ...data });
    const over = await s.post(note('create', { text: 'y'.repeat(4 * KiB + 1) }));
    expect(over.status).toBe(422);
    expect(over.body.__errors__[0]).toMatchObject({ code: 'validation_error', path: ['text'] });
    const made = await s.post(note('create', { a: 'a'.repeat(3 * KiB) }));
    expect(made.status).toBe(200);
    const merged = await s.post(note('update', { b: 'b'.repeat(3 * KiB) }, { uniqueObject: { id: made.body.__payload__.id } }));
    expect(merged.status).toBe(422);
    expect(merged.body.__errors__[0].message).toMatch(/limits\.maxValueBytes/);
  });
});
