/**
 * Servers of one random workspace (testing/random-reads.ts) with their callers: an admin, a member
 * (row-scoped on r.C) and anonymous. Writes go to every server, by the admin, and must be answered
 * alike; the rows they leave are kept in KnownRows for the reference evaluator.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { testApp, writeWorkspace, type TestApp } from './fixture.ts';
import {
  KnownRows,
  fieldTypesArb,
  queryArb,
  queryOf,
  refModelsOf,
  variationArb,
  workspaceOf,
  writeArb,
  type Caller,
  type ConcreteQuery,
  type FieldTypes,
  type QueryPicks,
  type Variation,
  type WritePicks,
} from './random-reads.ts';
import type { RefModel } from './reference-filter.ts';

const ADMIN = { username: 'root', password: 'root-password-1' };
const MEMBER = { username: 'member', password: 'member-password-1' };

export class RandomWorld {
  readonly servers: TestApp[];
  readonly known: KnownRows;
  readonly models: Record<string, RefModel>;
  readonly memberId: number;
  private readonly tokens: Array<Record<Caller, string | undefined>>;

  private constructor(servers: TestApp[], tokens: Array<Record<Caller, string | undefined>>, types: FieldTypes, users: { admin: number; member: number }) {
    this.servers = servers;
    this.tokens = tokens;
    this.models = refModelsOf(types);
    this.known = new KnownRows(types, [users.admin, users.member]);
    this.memberId = users.member;
  }

  /** One server per option set (`shortcuts` on or off), each on a fresh data folder. */
  static async start(types: FieldTypes, options: Array<{ shortcuts: boolean }>): Promise<RandomWorld> {
    const file = writeWorkspace(workspaceOf(types));
    const servers: TestApp[] = [];
    const tokens: Array<Record<Caller, string | undefined>> = [];
    let users = { admin: 0, member: 0 };
    try {
      for (const option of options) {
        const server = await testApp({ workspace: file, env: { JQL_ADMIN: `${ADMIN.username}:${ADMIN.password}` }, ...option });
        servers.push(server);
        const admin = await server.login(ADMIN.username, ADMIN.password);
        const created = await server.post({ __meta__: { namespace: 'system.User', intent: 'create' }, ...MEMBER, roles: ['member'] }, { token: admin });
        const me = await server.post({ __meta__: { namespace: 'system.User', intent: 'retrieveOne', uniqueObject: { username: ADMIN.username } }, id: null }, { token: admin });
        users = { admin: me.body.__payload__.id, member: created.body.__payload__.id };
        tokens.push({ anonymous: undefined, admin, member: await server.login(MEMBER.username, MEMBER.password) });
      }
    } catch (error) {
      for (const server of servers) await server.close();
      throw error;
    }
    return new RandomWorld(servers, tokens, types, users);
  }

  /** The answer of server `index` to `body` as `who`. */
  ask(index: number, who: Caller, body: unknown): Promise<{ status: number; body: any }> {
    const server = this.servers[index] as TestApp;
    const token = (this.tokens[index] as Record<Caller, string | undefined>)[who];
    return server.post(body, token ? { token } : {});
  }

  /** A write by the admin on every server: the same answer from each, and the known rows follow. */
  async write(picks: WritePicks): Promise<void> {
    const write = this.known.writeOf(picks);
    if (!write) return;
    const answers = [];
    for (let i = 0; i < this.servers.length; i++) answers.push(await this.ask(i, 'admin', write.body));
    const first = answers[0] as { status: number; body: any };
    for (const answer of answers) expect(JSON.stringify(answer.body), JSON.stringify(write.body)).toBe(JSON.stringify(first.body));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    write.apply(first.body);
  }

  async close(): Promise<void> {
    for (const server of this.servers) await server.close();
  }
}

/** A read of one of the run's query shapes with values and a caller of its own, or a write. */
type Step = { shape: number; vary: Variation } | { write: WritePicks };
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ shape: fc.nat(), vary: variationArb }) },
  { weight: 1, arbitrary: writeArb.map((write) => ({ write })) },
);

/**
 * The property over random worlds: a workspace, 3 to 10 rows written first, 1 to 6 query shapes,
 * then 10 to 30 steps, each a write (on every server) or a read of a shape that `read` checks.
 * `valid`: only values the contract accepts.
 */
export function randomReadsProperty(
  servers: Array<{ shortcuts: boolean }>,
  valid: boolean,
  read: (world: RandomWorld, query: ConcreteQuery) => Promise<void>,
): fc.IAsyncProperty<[FieldTypes, WritePicks[], QueryPicks[], Step[]]> {
  return fc.asyncProperty(
    fieldTypesArb,
    fc.array(writeArb, { minLength: 3, maxLength: 10 }),
    fc.array(queryArb, { minLength: 1, maxLength: 6 }),
    fc.array(stepArb, { minLength: 10, maxLength: 30 }),
    async (types, seed, shapes, steps) => {
      const world = await RandomWorld.start(types, servers);
      try {
        for (const write of seed) await world.write(write);
        for (const step of steps) {
          if ('write' in step) await world.write(step.write);
          else await read(world, queryOf(world.models, shapes[step.shape % shapes.length] as QueryPicks, valid, step.vary));
        }
      } finally {
        await world.close();
      }
    },
  );
}
