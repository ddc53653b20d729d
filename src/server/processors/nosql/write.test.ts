// create, update (shallow merge) and delete on a collection: documents stored as sent, server-owned
// keys, events and cache invalidation, row scopes, and the errors a write can answer (docs/protocol.md "Processors").
import { beforeEach, describe, expect, it } from 'vitest';
import { makeHarness, NAMESPACE, seed, type Harness } from './test-context.ts';

let h: Harness;

beforeEach(() => {
  h = makeHarness();
});

const stored = (id: number) => h.raw.get('SELECT * FROM jql_documents WHERE id = ?', [id]) as { body: string; collection: string } | undefined;

describe('create', () => {
  it('stores the data keys exactly as sent and answers the record', async () => {
    const document = { threadId: 'T1', authorInfo: { displayName: 'Ann', XMLHttp: true }, some_key: [1, { innerKey: null }] };
    const out = await h.run({ intent: 'create' }, document);
    expect(out.payload).toEqual({ id: 1, ...document, created_at: expect.any(String), updated_at: expect.any(String) });
    expect(out.message).toBe(`Created ${NAMESPACE} 1`);
    expect(JSON.parse(stored(1)?.body as string)).toEqual(document);
    expect(stored(1)?.collection).toBe(NAMESPACE);
    expect(h.events).toEqual([{ kind: 'created', namespace: NAMESPACE, schema: 'nosql', id: 1 }]);
    expect(h.checks).toEqual(['create']);
    // camelCase keys stay camelCase when read back and when filtered on.
    const { payload } = await h.run({ intent: 'retrieve', filter: { 'authorInfo.displayName': 'Ann' } });
    expect(payload).toEqual([out.payload]);
  });

  it('keeps a __proto__ key as plain data', async () => {
    const document = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}');
    const out = await h.run({ intent: 'create' }, document);
    expect(Object.hasOwn(out.payload as object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('restricts the answer to __meta__.return', async () => {
    const out = await h.run({ intent: 'create', return: { text: null } }, { text: 'hi', other: 1 });
    expect(out.payload).toEqual({ id: 1, text: 'hi' });
  });

  it('refuses server-owned keys with one validation_error each and writes nothing', async () => {
    const failure = await h.fails({ intent: 'create' }, { id: 5, created_at: 'x', text: 'hi' });
    expect(failure).toMatchObject({ code: 'validation_error', field: 'id', errors: 2 });
    expect(h.raw.get('SELECT count(*) AS n FROM jql_documents')).toEqual({ n: 0 });
    expect(h.events).toEqual([]);
  });

  it('is forbidden, with nothing kept, when the document falls outside the caller\'s scope', async () => {
    h.access.set('create', { scopes: [{ 'author.id': 7 }] });
    expect((await h.fails({ intent: 'create' }, { author: { id: 8 } })).code).toBe('forbidden');
    expect(h.raw.get('SELECT count(*) AS n FROM jql_documents')).toEqual({ n: 0 });
    expect(h.events).toEqual([]);
    expect((await h.run({ intent: 'create' }, { author: { id: 7 } })).payload).toMatchObject({ author: { id: 7 } });
  });
});

describe('update', () => {
  beforeEach(async () => {
    await seed(h, [
      { text: 'first', author: { name: 'Ann', id: 7 }, tags: ['a'] },
      { text: 'second', author: { name: 'Bob', id: 8 } },
    ]);
  });

  it('merges the data keys shallowly: given keys replace whole values, others stay', async () => {
    const before = stored(1) as unknown as { created_at: string };
    const out = await h.run({ intent: 'update', uniqueObject: { id: 1 } }, { author: { name: 'Anna' }, pinned: true, tags: null });
    expect(out.payload).toEqual({ id: 1, text: 'first', author: { name: 'Anna' }, tags: null, pinned: true, created_at: before.created_at, updated_at: expect.any(String) });
    expect(out.message).toBe(`Updated ${NAMESPACE} 1`);
    expect(JSON.parse(stored(1)?.body as string)).toEqual({ text: 'first', author: { name: 'Anna' }, tags: null, pinned: true });
    expect(h.events.at(-1)).toEqual({ kind: 'updated', namespace: NAMESPACE, schema: 'nosql', id: 1 });
  });

  it('finds the document by any document path', async () => {
    await h.run({ intent: 'update', uniqueObject: { 'author.name': 'Bob' } }, { text: 'changed' });
    expect(JSON.parse(stored(2)?.body as string)).toMatchObject({ text: 'changed' });
  });

  it('answers not_found, a non-unique uniqueObject, and refuses server-owned keys', async () => {
    expect((await h.fails({ intent: 'update', uniqueObject: { id: 9 } }, { text: 'x' })).code).toBe('not_found');
    expect((await h.fails({ intent: 'update', uniqueObject: { 'author.name__istartswith': '' } }, { text: 'x' })).code).toBe('invalid_request');
    expect((await h.fails({ intent: 'update', uniqueObject: { id: 1 } }, { updated_at: 'x' })).code).toBe('validation_error');
  });

  it('keeps the row scope: outside it is not_found, and it bounds what the update makes', async () => {
    h.access.set('update', { scopes: [{ 'author.id': 7 }] });
    expect((await h.fails({ intent: 'update', uniqueObject: { id: 2 } }, { text: 'x' })).code).toBe('not_found');
    expect((await h.fails({ intent: 'update', uniqueObject: { id: 1 } }, { author: { id: 8 } })).code).toBe('forbidden');
    expect(JSON.parse(stored(1)?.body as string)).toMatchObject({ author: { id: 7 } });
  });
});

describe('delete', () => {
  beforeEach(async () => {
    await seed(h, [{ text: 'a' }, { text: 'b' }]);
  });

  it('deletes the document and answers its id', async () => {
    const out = await h.run({ intent: 'delete', uniqueObject: { id: 2 } });
    expect(out.payload).toEqual({ id: 2 });
    expect(out.message).toBe(`Deleted ${NAMESPACE} 2`);
    expect(stored(2)).toBeUndefined();
    expect(h.events.at(-1)).toEqual({ kind: 'deleted', namespace: NAMESPACE, schema: 'nosql', id: 2 });
    expect((await h.fails({ intent: 'delete', uniqueObject: { id: 2 } })).code).toBe('not_found');
  });

  it('propagates a denial and writes nothing', async () => {
    h.access.set('delete', { deny: 'forbidden' });
    expect((await h.fails({ intent: 'delete', uniqueObject: { id: 1 } })).code).toBe('forbidden');
    expect(stored(1)).toBeDefined();
  });

  it('never touches documents of another collection', async () => {
    h.raw.run("INSERT INTO jql_documents (collection, body, created_at, updated_at) VALUES ('chat.Other', '{\"text\":\"a\"}', 'x', 'x')");
    expect((await h.run({ intent: 'count' })).payload).toEqual({ count: 2 });
    expect((await h.fails({ intent: 'delete', uniqueObject: { id: 3 } })).code).toBe('not_found');
  });
});
