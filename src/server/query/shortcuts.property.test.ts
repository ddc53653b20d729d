// Property (issue 29): every shortcut is a cache of the plain path. Random workspaces, rows and
// sequences of reads (retrieve, count, retrieveOne; filter, exclude, uniqueObject, ordering, paging,
// the answer cache) with values that change the SQL's form, as anonymous, row-scoped and admin
// callers, with writes in between, run on one long-lived server with every shortcut and on a fresh
// one without any (`shortcuts: false`): the answers must be the same bytes. Only a cache hit's own
// report differs (`cached: true`, and the statements it did not run): those two keys are left out
// of the comparison for reads that asked for the cache.
//
// Default run: 6 workspaces, each with 3 to 10 rows written first, 1 to 6 query shapes, then 10 to 30
// steps (reads of those shapes with other values and callers, and writes): about 100 reads on each
// server, some 10 s on an idle 2-core machine. With the plan's form check removed it fails on its
// first workspace (checked for issue 29: `exclude: {"id__isnull": true}` after `false` answered the
// other form's count).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomReadsProperty } from '../testing/random-world.ts';

/** The envelope as sent, without what a cache hit reports about itself. */
function comparable(body: any, cached: boolean): string {
  if (cached && body?.__extras__) {
    const { cached: _hit, queries: _run, ...extras } = body.__extras__;
    return JSON.stringify({ ...body, __extras__: extras });
  }
  return JSON.stringify(body);
}

describe('every shortcut', () => {
  it('answers byte for byte what a server without shortcuts answers', async () => {
    await fc.assert(
      randomReadsProperty([{ shortcuts: true }, { shortcuts: false }], false, async (world, query) => {
        const fast = await world.ask(0, query.who, query.body);
        const plain = await world.ask(1, query.who, query.body);
        const what = `${query.who}: ${JSON.stringify(query.body)}`;
        expect(fast.status, what).toBe(plain.status);
        expect(comparable(fast.body, query.cache), what).toBe(comparable(plain.body, query.cache));
      }),
      // Each run starts two servers: a counterexample is reported as found, not shrunk.
      { numRuns: 6, endOnFailure: true },
    );
  }, 180_000);
});
