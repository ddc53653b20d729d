// Issue 17.1: a request with several mistakes gets one error per mistake, each with its path, not
// only the first one. Over a real socket, on a workspace no other test shares.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, writeWorkspace } from '../testing/fixture.ts';
import { startFileServer, type FileServer } from '../testing/file-server.ts';

let s: FileServer;
beforeAll(async () => {
  s = await startFileServer({ workspace: writeWorkspace(LIBRARY_WORKSPACE) });
  await s.post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'Le Guin' });
});
afterAll(() => s.close());

const errorsOf = (body: any): Array<{ code: string; path: unknown }> => body.__errors__.map((e: any) => ({ code: e.code, path: e.path }));

describe('every mistake of a request is reported', () => {
  it('lists three misspelled fields of a retrieve across selection, filter and ordering', async () => {
    const res = await s.post({
      __meta__: { namespace: 'lib.Book', intent: 'retrieve', filter: { titel__icontains: 'x', pages__gte: 'ten', author__nmae: 'y' }, ordering: ['-pagse', 'title'] },
      titel: null,
      staus: null,
      author: { nmae: null },
    });
    expect(res.status).toBe(400);
    expect(errorsOf(res.body)).toEqual([
      { code: 'unknown_field', path: ['titel'] },
      { code: 'unknown_field', path: ['staus'] },
      { code: 'unknown_field', path: ['author', 'nmae'] },
      { code: 'unknown_field', path: ['filter', 'titel__icontains'] },
      { code: 'invalid_request', path: ['filter', 'pages__gte'] },
      { code: 'unknown_field', path: ['filter', 'author__nmae'] },
      { code: 'unknown_field', path: ['ordering', 0] },
    ]);
  });

  it('lists every bad lookup and every unknown __meta__ key', async () => {
    const res = await s.post({ __meta__: { namespace: 'lib.Book', intent: 'count', filter: { pages__near: 1, title__gt__x: 'a' }, limt: 5, ordring: [] } });
    expect(errorsOf(res.body)).toEqual([
      { code: 'invalid_request', path: ['__meta__', 'limt'] },
      { code: 'invalid_request', path: ['__meta__', 'ordring'] },
    ]);
    const lookups = await s.post({ __meta__: { namespace: 'lib.Book', intent: 'count', filter: { pages__near: 1, tags__icontains: 'a', in_print__gt: true } } });
    expect(errorsOf(lookups.body)).toEqual([
      { code: 'invalid_lookup', path: ['filter', 'pages__near'] },
      { code: 'invalid_lookup', path: ['filter', 'tags__icontains'] },
      { code: 'invalid_lookup', path: ['filter', 'in_print__gt'] },
    ]);
  });

  it('lists unknown fields and every validation_error of a create together, the unknown ones first, and writes nothing', async () => {
    const res = await s.post({
      __meta__: { namespace: 'lib.Book', intent: 'create', return: { titel: null } },
      pages: 0,
      status: 'lost',
      colour: 'red',
      rating: 'high',
    });
    expect(res.status).toBe(400);
    expect(errorsOf(res.body)).toEqual([
      { code: 'unknown_field', path: ['colour'] },
      { code: 'unknown_field', path: ['__meta__', 'return', 'titel'] },
      { code: 'validation_error', path: ['title'] },
      { code: 'validation_error', path: ['status'] },
      { code: 'validation_error', path: ['pages'] },
      { code: 'validation_error', path: ['rating'] },
    ]);
    expect((await s.post({ __meta__: { namespace: 'lib.Book', intent: 'count' } })).body.__payload__).toEqual({ count: 0 });
  });

  it('lists every error of a grouped retrieve', async () => {
    const res = await s.post({
      __meta__: { namespace: 'lib.Book', intent: 'retrieve', groupBy: { by: ['stauts', 'author.nmae'], aggregates: { total: { sum: 'title' }, most: { max: 'pagez' } } }, ordering: ['-nope'] },
    });
    expect(errorsOf(res.body)).toEqual([
      { code: 'unknown_field', path: ['__meta__', 'group_by', 0] },
      { code: 'unknown_field', path: ['__meta__', 'group_by', 1] },
      { code: 'invalid_request', path: ['__meta__', 'group_by', 'aggregates', 'total'] },
      { code: 'unknown_field', path: ['__meta__', 'group_by', 'aggregates', 'most'] },
      { code: 'unknown_field', path: ['ordering', 0] },
    ]);
  });

  it('lists every bad entry of a NoSQL query', async () => {
    const chat = await startFileServer({ workspace: writeWorkspace({ apps: { chat: { collections: { Message: { permissions: { retrieve: ['anyone'] } } } } } }) });
    try {
      const res = await chat.post({ __meta__: { namespace: 'chat.Message', schema: 'nosql', intent: 'retrieve', filter: { 'a..b': 1, id__icontains: 'x', n__in: 3 } }, text: 1 });
      expect(errorsOf(res.body)).toEqual([
        { code: 'invalid_request', path: ['text'] },
        { code: 'invalid_request', path: ['filter', 'a..b'] },
        { code: 'invalid_lookup', path: ['filter', 'id__icontains'] },
        { code: 'invalid_request', path: ['filter', 'n__in'] },
      ]);
    } finally {
      await chat.close();
    }
  });
});
