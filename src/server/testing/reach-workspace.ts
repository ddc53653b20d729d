/**
 * A workspace for the tests of paths that cross into other models (docs/protocol.md "Field selection", "Permissions and row scopes"): tasks open to
 * anyone, referencing projects that only members (their own) and auditors (all) may read, which
 * reference clients that only members may read (gold ones), and users (any signed-in caller). So a
 * path from a task goes two references deep, through row scopes that differ per caller.
 */
import { dirname } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { testApp, writeWorkspace, type TestApp } from './fixture.ts';

const ADMIN_ONLY = { create: ['admin'], update: ['admin'], delete: ['admin'] };

export const REACH_WORKSPACE = {
  name: 'reach',
  limits: { defaultLimit: 100, maxLimit: 500 },
  apps: {
    work: {
      models: {
        Client: {
          fields: {
            name: { type: 'string', required: true },
            tier: { type: 'string', choices: ['gold', 'silver', 'bronze'] },
            rating: { type: 'integer', null: true },
          },
          permissions: { retrieve: ['member'], ...ADMIN_ONLY, scope: { member: { tier: 'gold' } } },
        },
        Project: {
          fields: {
            name: { type: 'string', required: true },
            budget: { type: 'integer', null: true },
            owner: { type: 'ref', to: 'system.User', null: true },
            client: { type: 'ref', to: 'work.Client', null: true },
          },
          permissions: { retrieve: ['member', 'auditor'], ...ADMIN_ONLY, scope: { member: { owner: '$user.id' } } },
        },
        Task: {
          fields: {
            title: { type: 'string', required: true },
            points: { type: 'integer', null: true },
            done: { type: 'boolean', default: false },
            project: { type: 'ref', to: 'work.Project', null: true },
          },
          search: ['title'],
          permissions: { retrieve: ['anyone'], ...ADMIN_ONLY },
        },
      },
    },
  },
};

export const REACH_ADMIN = { username: 'root', password: 'root-password-1' };
export const REACH_ADMIN_ENV = { JQL_ADMIN: `${REACH_ADMIN.username}:${REACH_ADMIN.password}` };

/** The callers: anonymous, two members (each owns projects), an auditor, and a user with no role. */
export const REACH_USERS = {
  alice: ['member'],
  bob: ['member'],
  carol: ['auditor'],
  dave: [],
} as const satisfies Record<string, string[]>;
export type ReachUser = keyof typeof REACH_USERS;
export const passwordOf = (user: ReachUser): string => `${user}-password-1`;

export const CLIENTS = [
  { name: 'Acme', tier: 'gold', rating: 5 },
  { name: 'Globex', tier: 'silver', rating: 3 },
  { name: 'Initech', tier: 'gold', rating: null },
  { name: 'Umbrella', tier: 'bronze', rating: 1 },
];

/** owner and client are indexes into the users / CLIENTS (null: none). */
export const PROJECTS: Array<{ name: string; budget: number | null; owner: ReachUser | null; client: number | null }> = [
  { name: 'Apollo', budget: 100, owner: 'alice', client: 0 },
  { name: 'Borealis', budget: 250, owner: 'bob', client: 1 },
  { name: 'Cygnus', budget: null, owner: 'alice', client: 1 },
  { name: 'Draco', budget: 250, owner: 'bob', client: 2 },
  { name: 'Eridanus', budget: 50, owner: null, client: null },
  { name: 'Fornax', budget: 400, owner: 'alice', client: 3 },
];

const TITLES = ['fix login', 'Fix layout', 'write docs', 'review', 'deploy', 'Review'];

/** Deterministic tasks: titles, points and projects repeat, so groups, ties and NULLs all occur. */
export const TASKS = Array.from({ length: 30 }, (_, i) => ({
  title: TITLES[i % TITLES.length] as string,
  points: i % 7 === 0 ? null : (i * 5) % 9,
  done: i % 3 === 0,
  project: i % 8 === 7 ? null : i % PROJECTS.length,
}));

type Post = (body: unknown, token?: string) => Promise<{ status: number; body: any }>;

export interface ReachIds {
  users: Record<ReachUser, number>;
  clients: number[];
  projects: number[];
}

function created(res: { status: number; body: any }): number {
  if (res.status !== 200) throw new Error(`seeding failed: ${JSON.stringify(res.body)}`);
  return res.body.__payload__.id as number;
}

/** Writes the users and records as the admin; the same calls give the same ids on every server. */
export async function seedReach(post: Post, adminToken: string): Promise<ReachIds> {
  const create = (namespace: string, data: Record<string, unknown>) => post({ __meta__: { namespace, intent: 'create' }, ...data }, adminToken).then(created);
  const users = {} as Record<ReachUser, number>;
  for (const [username, roles] of Object.entries(REACH_USERS) as Array<[ReachUser, readonly string[]]>) {
    users[username] = await create('system.User', { username, password: passwordOf(username), email: `${username}@reach.test`, roles: [...roles] });
  }
  const clients: number[] = [];
  for (const client of CLIENTS) clients.push(await create('work.Client', client));
  const projects: number[] = [];
  for (const project of PROJECTS) {
    projects.push(
      await create('work.Project', {
        name: project.name,
        budget: project.budget,
        owner: project.owner === null ? null : users[project.owner],
        client: project.client === null ? null : clients[project.client],
      }),
    );
  }
  for (const task of TASKS) await create('work.Task', { ...task, project: task.project === null ? null : projects[task.project] });
  return { users, clients, projects };
}

/**
 * Reduces a seeded server's data to what `user` (a member) may read: the projects it does not own
 * and the clients that are not gold are deleted, so references to them become NULL (ON DELETE SET
 * NULL). The same query run as the admin on such a server is what the member may learn.
 */
export async function keepOnlyVisibleTo(post: Post, adminToken: string, ids: ReachIds, user: ReachUser): Promise<void> {
  const remove = async (namespace: string, id: number): Promise<void> => {
    const res = await post({ __meta__: { namespace, intent: 'delete', uniqueObject: { id } } }, adminToken);
    if (res.status !== 200) throw new Error(`projection failed: ${JSON.stringify(res.body)}`);
  };
  for (const [index, project] of PROJECTS.entries()) if (project.owner !== user) await remove('work.Project', ids.projects[index] as number);
  for (const [index, client] of CLIENTS.entries()) if (client.tier !== 'gold') await remove('work.Client', ids.clients[index] as number);
}

export function writeReachWorkspace(): { file: string; remove(): void } {
  const file = writeWorkspace(REACH_WORKSPACE);
  return { file, remove: () => rmSync(dirname(file), { recursive: true, force: true }) };
}

export interface SeededReach {
  /** The server; set in the test file's beforeAll. */
  t: TestApp;
  /** The admin's token. */
  admin: string;
  ids: ReachIds;
}

/**
 * A server on the reach workspace, its admin signed in and the records seeded, made in the calling
 * test file's beforeAll and closed (with the workspace file) in its afterAll.
 */
export function seededReachServer(timeoutMs = 60_000): SeededReach {
  const workspace = writeReachWorkspace();
  const seeded = {} as SeededReach;
  beforeAll(async () => {
    seeded.t = await testApp({ workspace: workspace.file, env: REACH_ADMIN_ENV });
    seeded.admin = await seeded.t.login(REACH_ADMIN.username, REACH_ADMIN.password);
    seeded.ids = await seedReach((body, token) => seeded.t.post(body, { token }), seeded.admin);
  }, timeoutMs);
  afterAll(async () => {
    await seeded.t?.close();
    workspace.remove();
  });
  return seeded;
}
