// Property (issue 29): the server's reads agree with the contract's filter rules, worked out by the
// reference evaluator (testing/reference-filter.ts) over the rows the test wrote. Random workspaces,
// rows and query shapes read again with other values (null and not, isnull both ways, in lists of 0
// to 5, ne with null, missing references, one and two hops) by anonymous, row-scoped and admin
// callers on one long-lived server with every shortcut, with writes in between. Each read must give
// the evaluator's records (ids, in order, and their own plain fields), `filtered` and count; a
// retrieveOne its one record, not_found or invalid_request; a path into a model anonymous callers may
// not read, 401.
//
// Default run: 6 workspaces, each with 3 to 10 rows, 1 to 6 query shapes and 10 to 30 steps (about
// 100 reads). With the plan's form check removed it fails on its first workspace.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConcreteQuery } from '../testing/random-reads.ts';
import { randomReadsProperty, type RandomWorld } from '../testing/random-world.ts';
import { RefRefusal, referenceFilter, referenceOrder, type RefRow } from '../testing/reference-filter.ts';

/** The workspace's default limit (none set: docs/workspace.md). */
const DEFAULT_LIMIT = 100;

type Expected = { code: string } | { count: number } | { ids: number[]; filtered: number; rows: RefRow[] } | { one: RefRow };

function expectedOf(world: RandomWorld, query: ConcreteQuery): Expected {
  if (query.who === 'anonymous' && (query.model === 'r.C' || query.enters.has('r.C'))) return { code: 'unauthenticated' };
  const data = world.known.visibleTo(query.who, world.models, world.memberId);
  let kept: RefRow[];
  try {
    kept = referenceFilter(data, query.model, { filter: query.filter, exclude: query.exclude, uniqueObject: query.uniqueObject ?? {} });
  } catch (error) {
    if (error instanceof RefRefusal) return { code: error.code };
    throw error;
  }
  if (query.intent === 'count') return { count: kept.length };
  if (query.intent === 'retrieveOne') {
    if (kept.length === 0) return { code: 'not_found' };
    if (kept.length > 1) return { code: 'invalid_request' };
    return { one: kept[0] as RefRow };
  }
  const offset = query.offset ?? 0;
  const page = referenceOrder(data, query.model, kept, query.ordering).slice(offset, offset + (query.limit ?? DEFAULT_LIMIT));
  return { ids: page.map((row) => row.id), filtered: kept.length, rows: page };
}

/** The row's own plain fields as a record shows them (f0 left out when the query excluded it). */
function plainFields(row: RefRow, query: ConcreteQuery): Record<string, unknown> {
  const omitted = (query.body.__meta__ as { exclude?: Record<string, unknown> }).exclude?.f0 === null;
  return Object.fromEntries(Object.entries(row).filter(([name]) => /^f\d$/.test(name) && !(omitted && name === 'f0')));
}

function check(answer: { status: number; body: any }, expected: Expected, query: ConcreteQuery): void {
  const what = `${query.who}: ${JSON.stringify(query.body)}`;
  if ('code' in expected) {
    expect(answer.body.__errors__?.[0]?.code, what).toBe(expected.code);
    return;
  }
  expect(answer.body.__errors__, what).toBeNull();
  if ('count' in expected) expect(answer.body.__payload__, what).toEqual({ count: expected.count });
  else if ('one' in expected) {
    expect(answer.body.__payload__.id, what).toBe(expected.one.id);
    expect(answer.body.__payload__, what).toMatchObject(plainFields(expected.one, query));
  } else {
    const records = answer.body.__payload__ as Array<Record<string, unknown>>;
    expect(records.map((record) => record.id), what).toEqual(expected.ids);
    expect(answer.body.__extras__.filtered, what).toBe(expected.filtered);
    records.forEach((record, i) => expect(record, what).toMatchObject(plainFields(expected.rows[i] as RefRow, query)));
  }
}

describe('the server’s reads', () => {
  it('keep exactly the records the contract’s filter rules keep', async () => {
    await fc.assert(
      randomReadsProperty([{ shortcuts: true }], true, async (world, query) => check(await world.ask(0, query.who, query.body), expectedOf(world, query), query)),
      // Each run starts a server: a counterexample is reported as found, not shrunk.
      { numRuns: 6, endOnFailure: true },
    );
  }, 180_000);
});
