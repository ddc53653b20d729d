/**
 * Applies a workspace to a running server in place (`serve --watch`, docs/workspace.md "Changing a
 * workspace while it runs"): no restart, so open HTTP connections, sign-ins, the local admin's cookie
 * and stream subscriptions stay.
 *
 * 1. The apps' modules are imported first (a changed file is a new module instance): one that fails
 *    to load changes nothing.
 * 2. Under the write gate, in one transaction: the migration (recorded in `jql_migrations` with the
 *    workspace's digest, even when no table changed), the search indexes and the triggers. A refusal
 *    rolls it all back and the server keeps its workspace.
 * 3. Right after the COMMIT, synchronously (before any other request runs): the event log takes the
 *    new models, and the new ServerState is swapped in (live-state.ts). The stream route then checks
 *    every subscription again against the new workspace.
 *
 * What cannot be applied in place: the limits the HTTP layer reads once when the app is built
 * (RESTART_LIMITS). A workspace that changes one of them is applied by a restart (cli.ts).
 */
import type { ServerState } from './context.ts';
import type { StreamHub } from './streams/hub.ts';
import type { LiveState } from './live-state.ts';
import type { MigrationReport } from './workspace/migrate.ts';
import { withoutMemos } from './workspace/memos.ts';
import type { Limits } from './workspace/types.ts';
import type { Workspace } from './workspace/types.ts';
import { loadWorkspaceModules, prepareSchema, stateFor } from './workspace-state.ts';

/**
 * Limits built into the app at start: fastify's body limit, the rate limiter, the bound of held
 * answers, the upload route's size limits and the answer cache's size.
 */
export const RESTART_LIMITS = ['maxBodyBytes', 'maxFileBytes', 'maxUploadBytes', 'requestsPerMinute', 'heldAnswerBytes', 'cacheEntries', 'cacheBytes'] as const satisfies ReadonlyArray<keyof Limits>;

/** Why `next` cannot be applied to a server running `running` in place, or null when it can. */
export function restartReason(running: Workspace, next: Workspace): string | null {
  const changed = RESTART_LIMITS.filter((limit) => running.limits[limit] !== next.limits[limit]);
  return changed.length === 0 ? null : `the limits ${changed.join(', ')} are read once at start`;
}

/** The summary recorded for a workspace applied with no table change (a permission, a limit, a module). */
export const NO_TABLE_CHANGE = 'workspace applied: no table changed';

export async function applyInPlace(live: LiveState, hub: StreamHub, next: Workspace): Promise<MigrationReport> {
  // The database and the shortcuts belong to the server: the same in every state.
  const { db, shortcuts } = live.state;
  if (!shortcuts) withoutMemos(next);
  const modules = await loadWorkspaceModules(next);
  return db.alter((connection) => {
    const schema = prepareSchema(connection, next, { unchanged: NO_TABLE_CHANGE });
    // Read under the gate: an apply that ran while this one loaded its modules is the one replaced.
    const running: ServerState = live.state;
    const state = stateFor(running, next, schema, modules);
    db.afterCommit(() => {
      hub.useWorkspace(next);
      live.swap(state);
    });
    return schema.report;
  });
}
