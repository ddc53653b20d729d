// Property (issue 15): for random filters, excludes, orderings, groupings, aggregates and nested
// selections over references two levels deep, an anonymous or scoped caller never learns a value of a
// model or row it cannot read directly. The oracle is the same query run as the admin on a server
// holding only what that caller may read (testing/reach-workspace.ts keepOnlyVisibleTo): the
// projects it does not own and the clients outside its scope deleted, references to them NULL. A
// query whose paths enter a model the caller may not read at all must be refused (401/403) instead.
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../testing/fixture.ts';
import {
  CLIENTS,
  PROJECTS,
  REACH_ADMIN,
  REACH_ADMIN_ENV,
  REACH_USERS,
  TASKS,
  keepOnlyVisibleTo,
  passwordOf,
  seedReach,
  writeReachWorkspace,
  type ReachUser,
} from '../testing/reach-workspace.ts';

type Caller = ReachUser | 'anonymous';
type Kind = 'string' | 'integer' | 'boolean';

/** Every terminal path the queries use, the models its hops enter, and the values worth comparing with. */
const PATHS: Record<string, { enters: string[]; kind: Kind; values: Array<string | number | boolean> }> = {
  id: { enters: [], kind: 'integer', values: [1, 5, 12, 30] },
  title: { enters: [], kind: 'string', values: [...new Set(TASKS.map((t) => t.title))] },
  points: { enters: [], kind: 'integer', values: [0, 1, 4, 8] },
  done: { enters: [], kind: 'boolean', values: [true, false] },
  'project.id': { enters: ['work.Project'], kind: 'integer', values: [1, 2, 3, 6] },
  'project.name': { enters: ['work.Project'], kind: 'string', values: PROJECTS.map((p) => p.name) },
  'project.budget': { enters: ['work.Project'], kind: 'integer', values: [50, 100, 250, 400] },
  'project.owner.username': { enters: ['work.Project', 'system.User'], kind: 'string', values: ['alice', 'bob', 'root'] },
  'project.owner.email': { enters: ['work.Project', 'system.User'], kind: 'string', values: ['alice@reach.test', 'bob@reach.test'] },
  'project.client.id': { enters: ['work.Project', 'work.Client'], kind: 'integer', values: [1, 2, 3, 4] },
  'project.client.name': { enters: ['work.Project', 'work.Client'], kind: 'string', values: CLIENTS.map((c) => c.name) },
  'project.client.tier': { enters: ['work.Project', 'work.Client'], kind: 'string', values: ['gold', 'silver', 'bronze'] },
  'project.client.rating': { enters: ['work.Project', 'work.Client'], kind: 'integer', values: [1, 3, 5] },
};
const PATH_NAMES = Object.keys(PATHS);
const NUMERIC_PATHS = PATH_NAMES.filter((path) => PATHS[path]?.kind === 'integer');

/** What each caller may read besides the tasks (everyone reads those): REACH_WORKSPACE's permissions. */
const READS: Record<Caller, Set<string>> = {
  anonymous: new Set(),
  alice: new Set(['work.Project', 'work.Client', 'system.User']),
  bob: new Set(['work.Project', 'work.Client', 'system.User']),
  carol: new Set(['work.Project', 'system.User']),
  dave: new Set(['system.User']),
};

const LOOKUPS: Record<Kind, string[]> = {
  string: ['exact', 'ne', 'iexact', 'icontains', 'startswith', 'iendswith', 'gt', 'lte', 'in', 'isnull'],
  integer: ['exact', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'range', 'isnull'],
  boolean: ['exact', 'ne', 'isnull'],
};

/** A filter or exclude entry: key with `.` or `__` separators, value of the lookup's shape. */
const entryArb = fc
  .record({ path: fc.constantFrom(...PATH_NAMES), pick: fc.nat(), second: fc.nat(), underscores: fc.boolean(), fragment: fc.nat() })
  .map(({ path, pick, second, underscores, fragment }) => {
    const spec = PATHS[path] as (typeof PATHS)[string];
    const lookups = LOOKUPS[spec.kind];
    const lookup = lookups[pick % lookups.length] as string;
    const value = spec.values[pick % spec.values.length] as string | number | boolean;
    const other = spec.values[second % spec.values.length] as string | number | boolean;
    let operand: unknown = value;
    if (lookup === 'in') operand = [value, other];
    else if (lookup === 'range') operand = [Math.min(Number(value), Number(other)), Math.max(Number(value), Number(other))];
    else if (lookup === 'isnull') operand = pick % 2 === 0;
    else if (lookup === 'icontains' || lookup === 'startswith' || lookup === 'iendswith') operand = String(value).slice(fragment % 3, 2 + (fragment % 4));
    const dotted = underscores ? path.replaceAll('.', '__') : path;
    return { key: lookup === 'exact' && pick % 2 === 0 ? dotted : `${dotted}__${lookup}`, path, operand };
  });

const conditionsArb = fc.uniqueArray(entryArb, { maxLength: 3, selector: (entry) => entry.key });

const SELECTIONS: Array<{ data: Record<string, unknown>; enters: string[] }> = [
  { data: { title: null, points: null, done: null }, enters: [] },
  { data: { title: null, project: { name: null, budget: null } }, enters: ['work.Project'] },
  { data: { points: null, project: { client: { name: null, tier: null } } }, enters: ['work.Project', 'work.Client'] },
  { data: { done: null, project: { name: null, owner: { username: null } } }, enters: ['work.Project', 'system.User'] },
];

const recordQueryArb = fc.record({
  filter: conditionsArb,
  exclude: conditionsArb,
  ordering: fc.uniqueArray(fc.record({ path: fc.constantFrom(...PATH_NAMES), descending: fc.boolean() }), { maxLength: 3, selector: (o) => o.path }),
  selection: fc.constantFrom(...SELECTIONS),
  search: fc.option(fc.constantFrom('fix', 're', 'o'), { nil: undefined }),
  limit: fc.integer({ min: 1, max: 40 }),
  offset: fc.integer({ min: 0, max: 8 }),
});

const aggregateArb = fc.oneof(
  fc.constant({ fn: 'count', field: '*' }),
  fc.record({ fn: fc.constantFrom('min', 'max', 'count'), field: fc.constantFrom(...PATH_NAMES) }),
  fc.record({ fn: fc.constant('sum'), field: fc.constantFrom(...NUMERIC_PATHS) }),
);

const groupQueryArb = fc.record({
  filter: conditionsArb,
  exclude: conditionsArb,
  by: fc.uniqueArray(fc.constantFrom(...PATH_NAMES), { minLength: 1, maxLength: 2 }),
  aggregates: fc.array(aggregateArb, { maxLength: 2 }),
  orderFirst: fc.array(fc.record({ which: fc.nat(), descending: fc.boolean() }), { maxLength: 2 }),
  limit: fc.integer({ min: 1, max: 40 }),
});

const callerArb = fc.constantFrom<Caller>('anonymous', ...(Object.keys(REACH_USERS) as ReachUser[]));

interface Built {
  body: Record<string, unknown>;
  /** The request's paths, each with the models it enters. */
  enters: string[];
}

function entriesOf(conditions: Array<{ key: string; operand: unknown }>): Record<string, unknown> {
  return Object.fromEntries(conditions.map((c) => [c.key, c.operand]));
}

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

function recordQuery(q: ValueOf<typeof recordQueryArb>): Built {
  const enters = [...q.filter, ...q.exclude].flatMap((c) => PATHS[c.path]?.enters ?? []);
  enters.push(...q.ordering.flatMap((o) => PATHS[o.path]?.enters ?? []), ...q.selection.enters);
  const meta: Record<string, unknown> = {
    namespace: 'work.Task',
    intent: 'retrieve',
    filter: entriesOf(q.filter),
    exclude: entriesOf(q.exclude),
    ordering: q.ordering.map((o) => `${o.descending ? '-' : ''}${o.path}`),
    limit: q.limit,
    offset: q.offset,
  };
  if (q.search !== undefined) meta.search = { value: q.search };
  return { body: { __meta__: meta, ...q.selection.data }, enters };
}

function groupQuery(q: ValueOf<typeof groupQueryArb>): Built {
  const aggregates = Object.fromEntries(q.aggregates.map((a, index) => [`a${index}`, { [a.fn]: a.field }]));
  const names = [...q.by, 'count', ...Object.keys(aggregates)];
  // Ordering by counts or aggregates ties; the grouped paths after them make the order total.
  const ordering: string[] = [];
  for (const { which, descending } of q.orderFirst) {
    const name = names[which % names.length] as string;
    if (!ordering.some((entry) => entry.replace(/^-/, '') === name)) ordering.push(`${descending ? '-' : ''}${name}`);
  }
  for (const path of q.by) if (!ordering.some((entry) => entry.replace(/^-/, '') === path)) ordering.push(path);
  const enters = [...q.filter, ...q.exclude].flatMap((c) => PATHS[c.path]?.enters ?? []);
  enters.push(...q.by.flatMap((path) => PATHS[path]?.enters ?? []), ...q.aggregates.flatMap((a) => PATHS[a.field]?.enters ?? []));
  return {
    body: {
      __meta__: {
        namespace: 'work.Task',
        intent: 'retrieve',
        filter: entriesOf(q.filter),
        exclude: entriesOf(q.exclude),
        groupBy: { by: q.by, aggregates },
        ordering,
        limit: q.limit,
      },
    },
    enters,
  };
}

describe('paths through references never tell a caller what it could not read directly', () => {
  const workspace = writeReachWorkspace();
  let real: TestApp;
  /** Per member, a server holding only what that member may read. */
  const views = new Map<ReachUser, TestApp>();
  const adminTokens = new Map<TestApp, string>();
  const tokens = new Map<Caller, string | undefined>([['anonymous', undefined]]);

  async function seeded(): Promise<{ app: TestApp; ids: Awaited<ReturnType<typeof seedReach>> }> {
    const app = await testApp({ workspace: workspace.file, env: REACH_ADMIN_ENV });
    const admin = await app.login(REACH_ADMIN.username, REACH_ADMIN.password);
    adminTokens.set(app, admin);
    const ids = await seedReach((body, token) => app.post(body, { token }), admin);
    return { app, ids };
  }

  beforeAll(async () => {
    ({ app: real } = await seeded());
    for (const user of Object.keys(REACH_USERS) as ReachUser[]) tokens.set(user, await real.login(user, passwordOf(user)));
    for (const member of ['alice', 'bob'] as const) {
      const { app, ids } = await seeded();
      await keepOnlyVisibleTo((body, token) => app.post(body, { token }), adminTokens.get(app) as string, ids, member);
      views.set(member, app);
    }
  }, 60_000);

  afterAll(async () => {
    await real?.close();
    for (const app of views.values()) await app.close();
    workspace.remove();
  });

  /** How many runs each branch took, so a generator that drifts to one side is noticed. */
  let seen = { refused: 0, compared: 0, scopedCompared: 0 };
  beforeEach(() => {
    seen = { refused: 0, compared: 0, scopedCompared: 0 };
  });
  afterEach(() => {
    expect(seen.refused).toBeGreaterThan(50);
    expect(seen.compared).toBeGreaterThan(50);
    expect(seen.scopedCompared).toBeGreaterThan(25);
  });

  async function check(caller: Caller, built: Built): Promise<void> {
    const answer = await real.post(built.body, { token: tokens.get(caller) });
    const refusedBy = built.enters.filter((model) => !READS[caller].has(model));
    if (refusedBy.length > 0) {
      seen.refused++;
      expect(answer.status, JSON.stringify(answer.body)).toBe(caller === 'anonymous' ? 401 : 403);
      expect(answer.body.__errors__[0].code).toBe(caller === 'anonymous' ? 'unauthenticated' : 'forbidden');
      expect(answer.body.__payload__).toBeNull();
      expect(answer.body.__extras__.queries).toBe(0);
      return;
    }
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    seen.compared++;
    if ((caller === 'alice' || caller === 'bob') && built.enters.length > 0) seen.scopedCompared++;
    const view = caller === 'alice' || caller === 'bob' ? (views.get(caller) as TestApp) : real;
    const truth = await view.post(built.body, { token: adminTokens.get(view) });
    expect(truth.status, JSON.stringify(truth.body)).toBe(200);
    expect(answer.body.__payload__).toEqual(truth.body.__payload__);
    expect(answer.body.__extras__.filtered).toBe(truth.body.__extras__.filtered);
  }

  it('for random record queries (filter, exclude, ordering, search, nested selection, paging)', async () => {
    await fc.assert(
      fc.asyncProperty(callerArb, recordQueryArb, (caller, q) => check(caller, recordQuery(q))),
      { numRuns: 250 },
    );
  }, 120_000);

  it('for random grouped queries (groupBy, aggregates, ordering by groups and aggregates)', async () => {
    await fc.assert(
      fc.asyncProperty(callerArb, groupQueryArb, (caller, q) => check(caller, groupQuery(q))),
      { numRuns: 250 },
    );
  }, 120_000);
});
