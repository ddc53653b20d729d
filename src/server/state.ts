/**
 * Builds the server's shared state from options: load and migrate the workspace, open the data
 * directory's database, load the apps' modules, seed the demo and make sure the first admin exists.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createAccessControl } from './auth/access.ts';
import { ensureUser, parseAdminSpec } from './auth/first-admin.ts';
import { createIdentityService } from './auth/identity-service.ts';
import { createLocalAdmin } from './auth/local-admin.ts';
import { LoginThrottle, type LoginThrottleOptions } from './auth/login-throttle.ts';
import { loadSecret } from './auth/secret.ts';
import { AnswerCache } from './cache/answer-cache.ts';
import { NO_ANSWER_CACHE } from './cache/no-answer-cache.ts';
import type { MutationSink, ServerState } from './context.ts';
import { Database } from './db/database.ts';
import { applyDemoSeed } from './demo/apply-seed.ts';
import { demoWorkspacePath } from './demo/seed.ts';
import { dispatchInner } from './dispatch/dispatch-inner.ts';
import { pruneFileRows } from './files/file-references.ts';
import { FileStore } from './files/file-store.ts';
import { createFileResolver } from './files/file-table.ts';
import { createUrlSigner } from './files/signed-url.ts';
import { modelStreamView } from './processors/model/stream-view.ts';
import { nosqlStreamView } from './processors/nosql/stream-view.ts';
import { StreamHub } from './streams/hub.ts';
import type { StreamViews } from './streams/views.ts';
import { withoutMemos } from './workspace/memos.ts';
import { loadWorkspace } from './workspace/resolve.ts';
import type { Workspace } from './workspace/types.ts';
import { installControllers, loadWorkspaceModules, prepareSchema } from './workspace-state.ts';

export interface StateOptions {
  /** The login throttle's settings (default LOGIN_THROTTLE; tests lengthen the first wait). */
  loginThrottle?: LoginThrottleOptions;
  /** Workspace file; the demo workspace when absent. */
  workspace?: string;
  /** The workspace already read (`serve --watch` starts again on the last good one); wins over `workspace`. */
  resolvedWorkspace?: Workspace;
  dataDir: string;
  production?: boolean;
  basePath?: string;
  /** Environment for JQL_ADMIN and JQL_SECRET (defaults to process.env). */
  env?: NodeJS.ProcessEnv;
  /** Make this start's local admin launch key and cookie (`serve --local-admin`, the desktop app). */
  localAdmin?: boolean;
  /**
   * false: no request takes a shortcut (plans, the anonymous path without promises, the page read
   * in one call, the answer cache, reused statements, memos): every answer comes from the plain path.
   * A server option, never a wire one: the tests that prove each shortcut transparent run the same
   * requests on a server with them and on one without (docs/architecture.md "Shortcuts"). Default true.
   */
  shortcuts?: boolean;
}

export const VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** What a running server is made of: the state requests see, and the streams' hub and views. */
export interface Runtime {
  state: ServerState;
  hub: StreamHub;
  views: StreamViews;
}

export async function createState(options: StateOptions): Promise<Runtime> {
  const env = options.env ?? process.env;
  const demo = options.workspace === undefined && options.resolvedWorkspace === undefined;
  const shortcuts = options.shortcuts ?? true;
  const ws = options.resolvedWorkspace ?? loadWorkspace(options.workspace ?? demoWorkspacePath());
  if (!shortcuts) withoutMemos(ws);
  // A start that fails in a folder it made (or found empty) leaves that folder as it found it: no
  // jql.sqlite or secret.key to trip the next start or to be mistaken for data.
  const fresh = !existsSync(options.dataDir) || readdirSync(options.dataDir).length === 0;
  const existed = existsSync(options.dataDir);
  mkdirSync(options.dataDir, { recursive: true });
  let db: Database;
  try {
    db = new Database(join(options.dataDir, 'jql.sqlite'), { reuseStatements: shortcuts });
  } catch (error) {
    if (fresh) emptyAgain(options.dataDir, existed);
    throw error;
  }
  try {
    const fileReferences = db.setup((connection) => {
      const { references } = prepareSchema(connection, ws);
      // The file rows no record names go before the store's sweep removes their blobs.
      pruneFileRows(connection, references);
      return references;
    });
    const modules = await loadWorkspaceModules(ws);
    const secret = loadSecret(options.dataDir, env);
    const basePath = options.basePath ?? '';
    // The event log's sink; the hub fans committed events out after each commit.
    const hub = new StreamHub(db, ws);
    const mutations: MutationSink = hub.sink;
    const fileStore = new FileStore(options.dataDir, db);
    fileStore.sweep();
    const state: ServerState = {
      ws,
      shortcuts,
      db,
      production: options.production ?? false,
      basePath,
      version: VERSION,
      access: createAccessControl(),
      files: createFileResolver(createUrlSigner(secret, basePath), fileReferences),
      fileStore,
      mutations,
      hooks: modules.hooks,
      identity: createIdentityService(db, secret, () => state.localAdmin),
      loginThrottle: new LoginThrottle(options.loginThrottle),
      controllers: new Map(),
      dispatch: dispatchInner,
      cache: shortcuts ? new AnswerCache(db, { maxEntries: ws.limits.cacheEntries, maxBytes: ws.limits.cacheBytes }) : NO_ANSWER_CACHE,
      secret,
    };
    installControllers(state, modules.controllers);
    if (demo) await applyDemoSeed(db, ws);
    if (env.JQL_ADMIN) {
      const { username, password } = parseAdminSpec(env.JQL_ADMIN);
      await ensureUser(db, username, password, ['admin']);
    }
    if (options.localAdmin) state.localAdmin = await createLocalAdmin(db);
    return { state, hub, views: { model: modelStreamView, nosql: nosqlStreamView } };
  } catch (error) {
    db.close();
    if (fresh) emptyAgain(options.dataDir, existed);
    throw error;
  }
}

/** Removes what a failed start wrote into a data folder that was new: the folder itself, or its content. */
function emptyAgain(dataDir: string, existed: boolean): void {
  if (!existed) {
    rmSync(dataDir, { recursive: true, force: true });
    return;
  }
  for (const name of readdirSync(dataDir)) rmSync(join(dataDir, name), { recursive: true, force: true });
}
