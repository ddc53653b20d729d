// Property (issue 34): "why not" and the rules agree. For random users (roles and row scopes two
// references deep), random filters and excludes and random records, the record is in the user's
// answer exactly when "why not" finds no rule, and a query the user is refused is explained by a rule
// (never "visible").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENTS, PROJECTS, REACH_ADMIN, seededReachServer, type REACH_USERS } from '../../testing/reach-workspace.ts';

type Caller = keyof typeof REACH_USERS | 'anonymous' | typeof REACH_ADMIN.username;

/** Paths from each model, with values worth comparing against (some never match, some are NULL). */
const PATHS: Record<string, Record<string, Array<string | number | boolean | null>>> = {
  'work.Task': {
    title: ['review', 'Review', 'deploy'],
    points: [0, 4, 8, null],
    done: [true, false],
    project__name: PROJECTS.map((p) => p.name),
    project__budget: [50, 250, null],
    project__owner__username: ['alice', 'bob'],
    project__client__tier: ['gold', 'silver'],
    project__client__name: CLIENTS.map((c) => c.name),
  },
  'work.Project': {
    name: PROJECTS.map((p) => p.name),
    budget: [50, 100, 250, null],
    owner__username: ['alice', 'bob', 'carol'],
    client__tier: ['gold', 'silver', 'bronze'],
    client__rating: [1, 3, 5, null],
  },
};
const LOOKUPS = ['', '__ne', '__in', '__isnull', '__gte'];

const entryArb = (namespace: string) =>
  fc.record({ path: fc.constantFrom(...Object.keys(PATHS[namespace] as object)), lookup: fc.constantFrom(...LOOKUPS), pick: fc.nat(), other: fc.nat() }).map(({ path, lookup, pick, other }) => {
    const values = (PATHS[namespace] as Record<string, unknown[]>)[path] as unknown[];
    const value = values[pick % values.length] ?? null;
    const second = values[other % values.length] ?? null;
    // Booleans and strings take no __gte in every case: an invalid lookup is a refusal to explain too.
    const operand = lookup === '__in' ? [value, second].filter((v) => v !== null) : lookup === '__isnull' ? pick % 2 === 0 : value;
    return [`${path}${lookup}`, operand] as const;
  });

const caseArb = fc.constantFrom('work.Task', 'work.Project').chain((namespace) =>
  fc.record({
    namespace: fc.constant(namespace),
    caller: fc.constantFrom<Caller>('anonymous', 'alice', 'bob', 'carol', 'dave', REACH_ADMIN.username),
    filter: fc.uniqueArray(entryArb(namespace), { maxLength: 2, selector: ([key]) => key }),
    exclude: fc.uniqueArray(entryArb(namespace), { maxLength: 1, selector: ([key]) => key }),
    id: fc.integer({ min: 1, max: namespace === 'work.Task' ? 31 : 7 }),
  }),
);

describe('why not agrees with the answer', () => {
  const seeded = seededReachServer();

  it('a record is in the answer exactly when why not finds no rule (300 random cases)', async () => {
    expect(seeded.ids.projects).toHaveLength(PROJECTS.length);
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ namespace, caller, filter, exclude, id }) => {
        const meta: Record<string, unknown> = { namespace, intent: 'retrieve', filter: Object.fromEntries(filter), exclude: Object.fromEntries(exclude), limit: 500 };
        // The anonymous caller asks for itself; everyone else is seen as by the seeded.admin (see-as.test.ts
        // shows that answer is the user's own).
        const as = caller === 'anonymous' ? {} : caller === REACH_ADMIN.username ? {} : { seeAs: caller };
        const token = caller === 'anonymous' ? undefined : seeded.admin;
        const answer = await seeded.t.post({ __meta__: { ...meta, ...as } }, { token });
        const explained = await seeded.t.post({ __meta__: { ...meta, ...as, whyNot: { id } } }, { token });
        expect(explained.status).toBe(200);
        const { visible, reasons } = explained.body.__payload__ as { visible: boolean; reasons: Array<{ rule: string }> };
        expect(visible).toBe(reasons.length === 0);
        if (answer.status !== 200) {
          // A refused query: no record is in its answer, and a rule of the query as a whole says why.
          expect(visible).toBe(false);
          expect(['permission', 'reference_path', 'refused', 'not_found']).toContain(reasons[0]?.rule);
          return;
        }
        const inAnswer = (answer.body.__payload__ as Array<{ id: number }>).some((record) => record.id === id);
        expect({ id, inAnswer, reasons }).toEqual({ id, inAnswer: visible, reasons });
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
