// Property: a retrieve with `cache.enabled` answers exactly what the same retrieve without the cache
// answers, whatever ran before it: random interleavings of cached reads, writes (of the read model
// and of models it reaches through nested selections, reverse relations, and filters, exclusions,
// orderings and groupings through references), deletes that rewrite rows
// through ON DELETE SET NULL, role changes of the reader, and atomic multi-queries that commit or
// roll back with cached reads inside them (docs/protocol.md "`__meta__` keys", "Multi-query").
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';

const LEAGUE = {
  name: 'league',
  apps: {
    league: {
      models: {
        Team: {
          fields: { name: { type: 'string', required: true, unique: true }, city: { type: 'string', null: true } },
          relations: { players: { many: 'league.Player', via: 'team' } },
          permissions: { retrieve: ['anyone'], create: ['authenticated'], update: ['authenticated'], delete: ['authenticated'] },
        },
        Player: {
          fields: {
            name: { type: 'string', required: true },
            team: { type: 'ref', to: 'league.Team', null: true },
            owner: { type: 'ref', to: 'system.User', null: true },
            score: { type: 'integer', null: true },
            joined: { type: 'datetime', null: true },
          },
          permissions: {
            retrieve: ['coach', 'scout'],
            create: ['authenticated'],
            update: ['authenticated'],
            delete: ['authenticated'],
            scope: { scout: { owner: '$user.id' } },
          },
        },
      },
    },
  },
};

type Query = Record<string, unknown>;
const player = (meta: Query, data: Query = {}): Query => ({ __meta__: { namespace: 'league.Player', ...meta }, ...data });
const team = (meta: Query, data: Query = {}): Query => ({ __meta__: { namespace: 'league.Team', ...meta }, ...data });

/** The reads, each asked with and without the cache. */
const READS: Array<(n: number) => Query> = [
  () => player({ intent: 'retrieve', ordering: ['name'], limit: 50 }, { name: null, score: null, team: { name: null, city: null } }),
  () => team({ intent: 'retrieve', ordering: ['name'], limit: 50 }, { name: null, players: { name: null, score: null } }),
  (n) => player({ intent: 'retrieve', filter: { score__gte: n }, ordering: ['-score', 'name'], limit: 5 }, { name: null, score: null }),
  () => player({ intent: 'retrieve', groupBy: { by: ['team'], aggregates: { best: { max: 'score' } } }, ordering: ['-count'] }),
  (n) => player({ intent: 'retrieve', filter: { joined__gte: `2030-01-0${1 + (n % 3)}T10:00:00+02:00` }, ordering: ['joined'] }, { name: null, joined: null }),
  (n) => player({ intent: 'retrieve', offset: n % 4, limit: 3, ordering: ['team', 'name'] }, { name: null, team: null, owner: null }),
  // Through a reference without selecting it: only the filter, ordering or grouping reaches Team.
  (n) => player({ intent: 'retrieve', filter: { 'team.name__startswith': `t${n % 3}` }, ordering: ['-team.city', 'name'] }, { name: null }),
  () => player({ intent: 'retrieve', groupBy: ['team.name'], ordering: ['team.name'] }),
  (n) => player({ intent: 'retrieve', exclude: { team__city: `city-${n}` }, ordering: ['name'] }, { name: null }),
];

type Who = 'root' | 'ann' | 'bob';

type Step =
  | { kind: 'read'; who: Who; read: number; n: number }
  | { kind: 'createPlayer'; name: number; team: number; owner: Who | null; score: number; day: number }
  | { kind: 'updatePlayer'; pick: number; score: number; team: number }
  | { kind: 'deletePlayer'; pick: number }
  | { kind: 'createTeam'; name: number }
  | { kind: 'renameTeam'; pick: number; name: number }
  | { kind: 'deleteTeam'; pick: number }
  | { kind: 'roles'; roles: readonly string[] }
  | { kind: 'atomic'; fails: boolean; read: number; n: number; write: number };

const who = fc.constantFrom<Who>('root', 'ann', 'bob');
const small = fc.nat({ max: 9 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('read' as const), who, read: fc.nat({ max: READS.length - 1 }), n: small }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('createPlayer' as const), name: small, team: small, owner: fc.option(who, { nil: null }), score: small, day: fc.nat({ max: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('updatePlayer' as const), pick: small, score: small, team: small }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deletePlayer' as const), pick: small }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('createTeam' as const), name: small }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('renameTeam' as const), pick: small, name: small }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteTeam' as const), pick: small }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('roles' as const), roles: fc.constantFrom(['coach'], ['scout'], ['coach', 'scout']) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('atomic' as const), fails: fc.boolean(), read: fc.nat({ max: READS.length - 1 }), n: small, write: fc.nat({ max: 2 }) }) },
);

let t: TestApp;
const tokens = {} as Record<Who, string>;
const ids = {} as Record<Who, number>;

beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace(LEAGUE), env: { JQL_ADMIN: 'root:root-password-1' } });
  tokens.root = await t.login('root', 'root-password-1');
  ids.root = (await t.post({ __meta__: { namespace: 'system.User', intent: 'retrieveOne', uniqueObject: { username: 'root' } } }, { token: tokens.root })).body.__payload__.id;
  for (const [name, roles] of [
    ['ann', ['coach']],
    ['bob', ['scout']],
  ] as const) {
    const res = await t.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: name, password: `${name}-password-1`, roles }, { token: tokens.root });
    ids[name] = res.body.__payload__.id;
    tokens[name] = await t.login(name, `${name}-password-1`);
  }
  // Never renamed or deleted: a create with its name is the conflict that rolls an atomic query back.
  await t.post(team({ intent: 'create' }, { name: 'Anchor' }), { token: tokens.root });
});
afterAll(() => t.close());

async function as(user: Who, body: Query): Promise<any> {
  const res = await t.post(body, { token: tokens[user] });
  return res.body;
}

async function existing(namespace: 'league.Player' | 'league.Team', pick: number): Promise<number | null> {
  const body = await as('root', { __meta__: { namespace, intent: 'retrieve', ordering: ['id'], limit: 1000 }, id: null });
  const found = (body.__payload__ as Array<{ id: number }>).map((record) => record.id);
  return found.length === 0 ? null : (found[pick % found.length] as number);
}

/** A cached read and the same read without the cache answer the same. */
async function checkRead(user: Who, query: Query): Promise<void> {
  const meta = query.__meta__ as Query;
  const cached = await as(user, { ...query, __meta__: { ...meta, cache: { enabled: true } } });
  const plain = await as(user, query);
  expect(cached.__errors__, JSON.stringify(cached.__errors__)).toEqual(plain.__errors__);
  expect(cached.__payload__).toEqual(plain.__payload__);
  if (plain.__extras__) {
    const { cached: _cached, queries: _a, ...cachedExtras } = cached.__extras__;
    const { queries: _b, ...plainExtras } = plain.__extras__;
    expect(cachedExtras).toEqual(plainExtras);
  }
}

async function writeOf(choice: number, n: number): Promise<Query> {
  if (choice === 0) return player({ intent: 'create' }, { name: `in-tx-${n}`, score: n, team: await existing('league.Team', n), joined: `2030-01-0${1 + (n % 3)}T09:00:00Z` });
  const teamId = await existing('league.Team', n);
  if (choice === 1 && teamId !== null) return team({ intent: 'update', uniqueObject: { id: teamId } }, { city: `city-${n}` });
  const playerId = await existing('league.Player', n);
  return playerId === null ? team({ intent: 'create' }, { name: `tx-team-${n}-${Date.now()}` }) : player({ intent: 'update', uniqueObject: { id: playerId } }, { score: n * 3 });
}

async function run(s: Step): Promise<void> {
  switch (s.kind) {
    case 'read':
      return checkRead(s.who, (READS[s.read] as (n: number) => Query)(s.n));
    case 'createPlayer': {
      const teamId = await existing('league.Team', s.team);
      await as('root', player({ intent: 'create' }, { name: `p${s.name}`, team: teamId, owner: s.owner ? ids[s.owner] : null, score: s.score, joined: `2030-01-0${1 + s.day}T08:30:00+01:00` }));
      return;
    }
    case 'updatePlayer': {
      const id = await existing('league.Player', s.pick);
      if (id !== null) await as('root', player({ intent: 'update', uniqueObject: { id } }, { score: s.score, team: await existing('league.Team', s.team) }));
      return;
    }
    case 'deletePlayer': {
      const id = await existing('league.Player', s.pick);
      if (id !== null) await as('root', player({ intent: 'delete', uniqueObject: { id } }));
      return;
    }
    case 'createTeam':
      await as('root', team({ intent: 'create' }, { name: `t${s.name}` }));
      return;
    case 'renameTeam': {
      const id = await existing('league.Team', s.pick);
      const body = id === null ? null : await as('root', team({ intent: 'retrieveOne', uniqueObject: { id } }, { name: null }));
      if (id !== null && body.__payload__.name !== 'Anchor') await as('root', team({ intent: 'update', uniqueObject: { id } }, { name: `t${s.name}-${id}` }));
      return;
    }
    case 'deleteTeam': {
      const id = await existing('league.Team', s.pick);
      const body = id === null ? null : await as('root', team({ intent: 'retrieveOne', uniqueObject: { id } }, { name: null }));
      if (id !== null && body.__payload__.name !== 'Anchor') await as('root', team({ intent: 'delete', uniqueObject: { id } }));
      return;
    }
    case 'roles':
      await as('root', { __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: ids.ann } }, roles: s.roles });
      return;
    case 'atomic': {
      const read = (READS[s.read] as (n: number) => Query)(s.n);
      const meta = read.__meta__ as Query;
      const multi: Query = {
        __root_meta__: { atomic: true },
        before: await checkThenCached(read),
        write: await writeOf(s.write, s.n),
        cached: { ...read, __meta__: { ...meta, cache: { enabled: true } } },
        plain: read,
      };
      if (s.fails) multi.clash = team({ intent: 'create' }, { name: 'Anchor' });
      const body = await as('root', multi);
      const results = body.__payload__;
      if (s.fails) {
        expect(results.clash.errors[0].code).toBe('conflict');
      } else if (!results.write.errors) {
        // Inside the transaction the cached read sees the transaction's own write.
        expect(results.cached.data).toEqual(results.plain.data);
      }
      return;
    }
  }
}

/** Each run starts from the same records (ids differ), so a counterexample replays on its own. */
async function reset(): Promise<void> {
  for (const namespace of ['league.Player', 'league.Team'] as const) {
    const body = await as('root', { __meta__: { namespace, intent: 'retrieve', limit: 1000 }, name: null });
    for (const record of body.__payload__ as Array<{ id: number; name: string }>) {
      if (record.name !== 'Anchor') await as('root', { __meta__: { namespace, intent: 'delete', uniqueObject: { id: record.id } } });
    }
  }
  await as('root', { __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: ids.ann } }, roles: ['coach'] });
}

/** Fills the cache with this read before a transaction, so the transaction meets an entry it may make stale. */
async function checkThenCached(read: Query): Promise<Query> {
  await checkRead('root', read);
  return { ...read, __meta__: { ...(read.__meta__ as Query), cache: { enabled: true } } };
}

describe('the retrieve cache', () => {
  it('answers every cached read as the same read without the cache', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
        await reset();
        for (const s of steps) await run(s);
        // Every read, by every caller, once more at the end.
        for (const user of ['root', 'ann', 'bob'] as const) for (let i = 0; i < READS.length; i++) await checkRead(user, (READS[i] as (n: number) => Query)(i));
      }),
      { numRuns: 25 },
    );
  });
});
