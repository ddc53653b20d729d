/**
 * The parts of a server's state that follow its workspace: the schema work on the writer, the apps'
 * modules, and the ServerState built from them. createState (state.ts) uses them at start;
 * apply-workspace.ts again when `serve --watch` applies a workspace in place, so a workspace applied
 * while the server runs is set up exactly as one it starts on.
 */
import { ensureAuthTables } from './auth/auth-tables.ts';
import { installChangeCapture } from './cache/change-capture.ts';
import type { ControllerClassLike, HookRunner, ServerState } from './context.ts';
import type { Sqlite } from './db/database.ts';
import { FileReferences, readFileColumns } from './files/file-references.ts';
import { createFileResolver, ensureFileTables } from './files/file-table.ts';
import { createUrlSigner } from './files/signed-url.ts';
import { defineController } from './modules/controller-def.ts';
import { loadControllers, loadHooks } from './modules/load-modules.ts';
import { ensureNosqlTables } from './processors/nosql/index.ts';
import { ensureSearchIndexes } from './search/fts.ts';
import { setupEventTables } from './streams/event-tables.ts';
import { schemaController } from './system/schema-controller.ts';
import { userController } from './system/user-controller.ts';
import { migrate, type MigrateOptions, type MigrationReport } from './workspace/migrate.ts';
import type { Workspace } from './workspace/types.ts';
import { workspaceDigest } from './workspace/workspace-digest.ts';

export interface PreparedSchema {
  report: MigrationReport;
  /** The file columns of the database as migrated for the workspace. */
  references: FileReferences;
}

/** The tables, indexes and triggers `ws` needs, on the writer, inside the caller's transaction. */
export function prepareSchema(connection: Sqlite, ws: Workspace, options: MigrateOptions = {}): PreparedSchema {
  const report = migrate(connection, ws, options);
  ensureSearchIndexes(connection, ws);
  ensureAuthTables(connection);
  ensureNosqlTables(connection);
  ensureFileTables(connection);
  setupEventTables(connection, ws);
  installChangeCapture(connection, ws);
  return { report, references: new FileReferences(readFileColumns(connection, ws)) };
}

/** The apps' controllers and hooks modules; a changed file is imported as a new module instance. */
export interface WorkspaceModules {
  hooks: HookRunner;
  controllers: Map<string, ControllerClassLike>;
}

export async function loadWorkspaceModules(ws: Workspace): Promise<WorkspaceModules> {
  return { hooks: await loadHooks(ws), controllers: await loadControllers(ws) };
}

/** Sets the built-in controllers (bound to `state`, so `describe` tells its workspace) and the apps'. */
export function installControllers(state: ServerState, controllers: Map<string, ControllerClassLike>): void {
  const builtins: Array<[string, ControllerClassLike]> = [
    ['system.Schema', schemaController(state)],
    ['system.User', userController(state)],
  ];
  for (const [key, controller] of [...builtins, ...controllers]) state.controllers.set(key, defineController(key, controller));
}

/**
 * The state of the server `running` serves, for the workspace `ws` applied in place. What belongs to
 * the server (database, secret, identity, the local admin's keys, the login throttle, the file store,
 * the event sink) is the same object, so sign-ins and the local admin cookie stay valid. What belongs
 * to the workspace is new: its modules, its controllers, its file columns, and a new ServerState
 * object, which starts with no query plan (query/plan-cache.ts keys plans by state), with an answer
 * cache keyed by its digest (AnswerCacheLike.forWorkspace).
 */
export function stateFor(running: ServerState, ws: Workspace, schema: PreparedSchema, modules: WorkspaceModules): ServerState {
  const state: ServerState = {
    ...running,
    ws,
    files: createFileResolver(createUrlSigner(running.secret, running.basePath), schema.references),
    hooks: modules.hooks,
    controllers: new Map(),
    cache: running.cache.forWorkspace(workspaceDigest(ws)),
  };
  installControllers(state, modules.controllers);
  return state;
}
