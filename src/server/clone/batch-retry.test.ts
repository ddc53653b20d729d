// Issue 29.4: a read refused inside a multi-query may only have met a budget an earlier read of the
// same request spent (limits.maxAnswerBytes is one budget per request). The clone asks it again alone
// before it takes the refusal as "this read is too large" and shrinks its page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, writeWorkspace } from '../testing/fixture.ts';
import { startFileServer, type FileServer } from '../testing/file-server.ts';
import { fetchBatches, type FetchSpec } from './batch-fetch.ts';
import { RemoteServer } from './remote-server.ts';

const KiB = 1024;
const PAGE = 8;
// A page of books weighs about 59 KiB of the 64: a read after it in the same request has 5 KiB left.
const WORKSPACE = { ...LIBRARY_WORKSPACE, limits: { defaultLimit: PAGE, maxLimit: PAGE, maxValueBytes: 8 * KiB, maxAnswerBytes: 64 * KiB } };

let s: FileServer;
beforeAll(async () => {
  s = await startFileServer({ workspace: writeWorkspace(WORKSPACE) });
  // Six pages of books (more than the halvings from 8 to 1), and two authors of 6 KB each: alone,
  // the authors fit at once; after a page of books, not even one of them does.
  const books = Object.fromEntries(
    Array.from({ length: 6 * PAGE }, (_, i) => [`b${i}`, { __meta__: { namespace: 'lib.Book', intent: 'create', return: { id: null } }, title: `${i} ${'x'.repeat(7500)}` }]),
  );
  const authors = Object.fromEntries(['A', 'B'].map((name) => [name, { __meta__: { namespace: 'lib.Author', intent: 'create', return: { id: null } }, name, country: 'c'.repeat(6000) }]));
  const made = await s.post({ ...books, ...authors });
  expect(Object.values(made.body.__payload__).every((answer: any) => answer.errors === null)).toBe(true);
});
afterAll(() => s.close());

describe('fetchBatches', () => {
  it('asks a read refused beside others again alone, and gets all of it', async () => {
    const remote = new RemoteServer({ baseUrl: s.url });
    const specs: FetchSpec[] = [
      { namespace: 'lib.Book', schema: 'model', label: 'lib.Book', root: true },
      { namespace: 'lib.Author', schema: 'model', label: 'lib.Author', root: true },
    ];
    const got = new Map<string, number>();
    const pageSizes: number[] = [];
    const incomplete: unknown[] = [];
    const failures = await fetchBatches(remote, specs, {
      pageSize: PAGE,
      perRequest: 4,
      onPage: (spec, records) => {
        got.set(spec.namespace, (got.get(spec.namespace) ?? 0) + records.length);
        if (spec.namespace === 'lib.Author') pageSizes.push(records.length);
        return true;
      },
      onIncomplete: (report) => incomplete.push(report),
    });
    expect(failures).toEqual([]);
    expect(incomplete).toEqual([]);
    expect(Object.fromEntries(got)).toEqual({ 'lib.Book': 6 * PAGE, 'lib.Author': 2 });
    // Both authors in one page: the page was not shrunk for a refusal that was the books' doing.
    expect(pageSizes).toEqual([2]);
  });
});
