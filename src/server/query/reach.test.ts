import { describe, expect, it } from 'vitest';
import { createAccessControl } from '../auth/access.ts';
import type { AuthUser } from '../auth/user.ts';
import { JqlFailure } from '../errors.ts';
import { REACH_WORKSPACE } from '../testing/reach-workspace.ts';
import { resolveWorkspace } from '../workspace/resolve.ts';
import { compileConditions } from './filter.ts';
import { JoinSet } from './joins.ts';
import { compileOrdering } from './ordering.ts';
import { resolvePath } from './paths.ts';
import { ModelReach } from './reach.ts';
import { buildSelection, enterSelection } from './selection.ts';

const ws = resolveWorkspace(REACH_WORKSPACE, null);
const task = ws.models.get('work.Task')!;
const access = createAccessControl();
const member: AuthUser = { id: 7, username: 'alice', roles: ['member'], isActive: true };
const auditor: AuthUser = { id: 8, username: 'carol', roles: ['auditor'], isActive: true };
const reachOf = (user: AuthUser | null) => new ModelReach({ state: { ws, access }, user }, task);

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof JqlFailure) return error.errors[0];
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('JoinSet with a ModelReach', () => {
  it('joins a scoped model with the caller scope in the ON clause, its parameters before the WHERE ones', () => {
    const reach = reachOf(member);
    const joins = new JoinSet(reach);
    const where = compileConditions(ws, task, { 'project.client.name': 'Acme', points__gte: 2 }, joins, 'filter');
    const from = joins.from();
    expect(from.sql).toBe(
      'FROM "work.Task" AS t0' +
        ' LEFT JOIN "work.Project" AS t1 ON t1."id" = t0."project" AND (IFNULL((t1."owner" = ?), 0))' +
        ' LEFT JOIN "work.Client" AS t2 ON t2."id" = t1."client" AND (IFNULL((t2."tier" = ?), 0))',
    );
    expect(from.params).toEqual([7, 'gold']);
    expect(where.params).toEqual(['Acme', 2]);
    expect([...reach.models]).toEqual(['work.Task', 'work.Project', 'system.User', 'work.Client']);
  });

  it('joins an unscoped model plainly', () => {
    const joins = new JoinSet(reachOf(auditor));
    compileOrdering(ws, task, ['-project.owner.username'], joins);
    expect(joins.from()).toEqual({
      sql: 'FROM "work.Task" AS t0 LEFT JOIN "work.Project" AS t1 ON t1."id" = t0."project" LEFT JOIN "system.User" AS t2 ON t2."id" = t1."owner"',
      params: [],
    });
  });

  it('refuses a hop into a model the caller may not read, naming the request path', () => {
    const resolved = resolvePath(ws, task, 'project.client.name__icontains', { lookups: true, errorPath: [] });
    const site = { field: 'project.client.name__icontains', path: ['exclude', 'project.client.name__icontains'] };
    expect(refusal(() => new JoinSet(reachOf(auditor)).column(resolved, site))).toMatchObject({ code: 'forbidden', ...site });
    const anonymous = refusal(() => new JoinSet(reachOf(null)).column(resolved, site));
    expect(anonymous).toMatchObject({ code: 'unauthenticated', ...site });
    expect(anonymous?.message).toContain('"project"');
  });

  it('checks a nested selection by the same rule, with the selection path', () => {
    const selection = buildSelection(ws, task, { title: null, project: { client: { name: null } } }, []);
    expect(refusal(() => enterSelection(reachOf(auditor), selection, ['fields']))).toMatchObject({
      code: 'forbidden',
      field: 'client',
      path: ['fields', 'project', 'client'],
    });
    const reach = reachOf(member);
    enterSelection(reach, selection);
    expect(reach.models.has('work.Client')).toBe(true);
  });
});
