// Issue 15.3 over a real socket: an answer past limits.maxAnswerBytes is payload_too_large (counted
// while rows are read, shared by every subquery of a request), and a reverse relation lists at most
// limits.maxNested records per parent, with a notice naming what was left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, writeWorkspace } from '../testing/fixture.ts';
import { startFileServer, type FileServer } from '../testing/file-server.ts';

const KiB = 1024;
const WORKSPACE = { ...LIBRARY_WORKSPACE, limits: { defaultLimit: 5, maxLimit: 100, maxValueBytes: 8 * KiB, maxAnswerBytes: 64 * KiB, maxNested: 5 } };

let s: FileServer;
beforeAll(async () => {
  s = await startFileServer({ workspace: writeWorkspace(WORKSPACE) });
  const authors = await s.post({
    a: { __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'Prolific' },
    b: { __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'Brief' },
  });
  const [prolific, brief] = [authors.body.__payload__.a.data.id, authors.body.__payload__.b.data.id];
  // 12 books of 4 KiB for one author (48 KiB), 2 short ones for the other.
  const books = Object.fromEntries([
    ...Array.from({ length: 12 }, (_, i) => [`p${i}`, { __meta__: { namespace: 'lib.Book', intent: 'create', return: { id: null } }, title: `${String(i).padStart(2, '0')} ${'x'.repeat(4 * KiB)}`, author: prolific }]),
    ...[0, 1].map((i) => [`b${i}`, { __meta__: { namespace: 'lib.Book', intent: 'create', return: { id: null } }, title: `brief ${i}`, author: brief }]),
  ]);
  const made = await s.post(books);
  expect(Object.values(made.body.__payload__).every((r: any) => r.errors === null)).toBe(true);
});
afterAll(() => s.close());

const books = (meta: Record<string, unknown> = {}, fields: Record<string, unknown> = { title: null }) => ({ __meta__: { namespace: 'lib.Book', intent: 'retrieve', ...meta }, ...fields });

describe('limits.maxAnswerBytes', () => {
  it('answers 413 payload_too_large naming the limit when the records would exceed it', async () => {
    // 12 books of 4 KiB: about 49 KiB, under the limit.
    const page = await s.post(books({ limit: 12 }, {}));
    expect(page.status).toBe(200);
    expect(page.body.__payload__).toHaveLength(12);
    // The same page with each author's books nested (5 more of 4 KiB): past 64 KiB.
    const nested = await s.post(books({ limit: 12 }, { title: null, author: { books: { title: null } } }));
    expect(nested.status).toBe(413);
    expect(nested.body.__errors__).toEqual([expect.objectContaining({ code: 'payload_too_large', message: expect.stringContaining('limits.maxAnswerBytes (65536 bytes)') })]);
  });

  it('counts every subquery of a multi-query against one budget, so the request reads about the limit at most', async () => {
    const page = books({ limit: 12 });
    const small = books({ limit: 1, filter: { title__startswith: 'brief' } });
    const res = await s.post({ small, first: page, second: page, after: small });
    expect(res.status).toBe(200);
    expect(res.body.__payload__.small.data).toEqual([expect.objectContaining({ title: 'brief 0' })]);
    expect(res.body.__payload__.first.errors).toBeNull();
    // The second page is refused, and so is every read after the budget is spent.
    expect(res.body.__payload__.second.errors[0]).toMatchObject({ code: 'payload_too_large' });
    expect(res.body.__payload__.after.errors[0]).toMatchObject({ code: 'payload_too_large' });
  });
});

describe('limits.maxAnswerBytes and the answer cache', () => {
  it('counts a cached answer against the same budget: ten copies of a 49 KiB page are refused as when uncached', async () => {
    const copies = (cache: boolean) => Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`c${i}`, books({ limit: 12, ...(cache ? { cache: { enabled: true } } : {}) }, {})]));
    const refusedOf = (res: { body: any }) => Object.values(res.body.__payload__).map((r: any) => r.errors?.[0]?.code ?? 'ok');
    const plain = await s.post(copies(false));
    expect(plain.status).toBe(200);
    expect(refusedOf(plain)).toEqual(['ok', ...Array(9).fill('payload_too_large')]);
    // Twice with the cache: the first request fills it, the second is all hits.
    for (let round = 0; round < 2; round++) {
      const cached = await s.post(copies(true));
      expect(cached.status).toBe(200);
      expect(refusedOf(cached)).toEqual(['ok', ...Array(9).fill('payload_too_large')]);
      expect(JSON.stringify(cached.body).length).toBeLessThan(64 * KiB);
    }
    const hit = await s.post(books({ limit: 12, cache: { enabled: true } }, {}));
    expect(hit.body.__extras__.cached).toBe(true);
  });
});

describe('limits.maxNested', () => {
  it('lists at most maxNested records of a reverse relation per parent, with a notice', async () => {
    const res = await s.post({ __meta__: { namespace: 'lib.Author', intent: 'retrieve', ordering: ['name'] }, name: null, books: { id: null } });
    expect(res.status).toBe(200);
    const [brief, prolific] = res.body.__payload__;
    expect(brief.books).toHaveLength(2);
    expect(prolific.books).toHaveLength(5);
    // The first ones in lib.Book's ordering (by id): the parent's window, not any five.
    expect(prolific.books.map((b: { id: number }) => b.id)).toEqual([...prolific.books.map((b: { id: number }) => b.id)].sort((a, b) => a - b));
    expect(res.body.__extras__.notices).toEqual([expect.stringMatching(/^lib\.Author\.books: 1 record holds more than 5 lib\.Book records; each lists its first 5 \(limits\.maxNested\)/)]);
    const one = await s.post({ __meta__: { namespace: 'lib.Author', intent: 'retrieveOne', uniqueObject: { name: 'Prolific' } }, books: { title: null } });
    expect(one.body.__payload__.books).toHaveLength(5);
    expect(one.body.__extras__.notices).toHaveLength(1);
  });

  it('adds no notice when no parent was cut, and keeps a constant number of statements', async () => {
    const res = await fetch(`${s.url}/jql?query_info_level=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ __meta__: { namespace: 'lib.Author', intent: 'retrieve', filter: { name: 'Brief' } }, books: { title: null } }),
    });
    const body = (await res.json()) as any;
    expect(body.__payload__[0].books).toHaveLength(2);
    expect(body.__extras__.notices).toBeUndefined();
    expect(body.__system__.queries).toBe(2);
  });
});

describe('limits.maxAnswerBytes and records referenced many times', () => {
  it('counts a referenced record once per record that sends it, so a small read of one large record repeated is refused while it is read', async () => {
    const wordy = await s.post({ __meta__: { namespace: 'lib.Author', intent: 'create', return: { id: null } }, name: 'Wordy', country: 'w'.repeat(8000) });
    const made = await s.post(
      Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`w${i}`, { __meta__: { namespace: 'lib.Book', intent: 'create', return: { id: null } }, title: `wordy ${i}`, author: wordy.body.__payload__.id }])),
    );
    expect(Object.values(made.body.__payload__).every((r: any) => r.errors === null)).toBe(true);
    const repeated = books({ limit: 20, filter: { author__name: 'Wordy' } }, { title: null, author: { country: null } });
    // One author of 8 KB read once, but sent 20 times: about 160 KB, past the 64 KiB limit.
    const res = await s.post({ repeated, count: books({ filter: { author__name: 'Wordy' } }, {}) });
    // Refused as the subquery read it (not the whole answer once written out): the other subquery stands.
    expect(res.status).toBe(200);
    expect(res.body.__payload__.repeated.errors[0]).toMatchObject({ code: 'payload_too_large' });
    // Six of them fit, and are answered.
    const few = await s.post(books({ limit: 6, filter: { author__name: 'Wordy' } }, { title: null, author: { country: null } }));
    expect(few.status).toBe(200);
    expect(few.body.__payload__).toHaveLength(6);
  });
});
