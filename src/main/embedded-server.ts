/**
 * The embedded JQL server's lifecycle: start it on 127.0.0.1 with a free port for a workspace (the
 * demo when none), swap it when the user opens another workspace, stop it when the app quits.
 * Operations are serialized, so a quick second "Open Workspace" never runs two servers on one
 * database; every change is reported through onStatus (main forwards it to the window).
 * The local admin's credential goes to onServer (main's vault) and nowhere else: the status the
 * window gets says only whether main signs in as the local admin (docs/protocol.md "The local admin").
 * The server serves no console page and no console configuration: the window is main's app:// page.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { EmbeddedServerStatus } from '../shared/bridge.ts';
import { plainLabel } from '../shared/plain-label.ts';
import { WatchStatus, type Workspace } from '../server/index.ts';

export interface StartedServer {
  url: string;
  close(): Promise<void>;
  localAdminToken?: string;
  /** The workspace it runs, resolved: where the watcher starts from. */
  workspace?: Workspace;
  /**
   * Applies a saved workspace to this running server without a restart, so the window's streams and
   * sign-ins stay ('applied'), or says it needs a restart (a limit read at start changed).
   */
  apply?(ws: Workspace): Promise<'applied' | 'restart'>;
}

export interface EmbeddedStartOptions {
  workspace?: string;
  dataDir: string;
  host: string;
  port: number;
  localAdmin: boolean;
  /** The desktop app's page is app://, so the server serves neither the console nor its configuration. */
  serveConsole: false;
  /** The collection folder the Saved view reads and edits through the server (docs/collections.md). */
  collections?: string;
  /** A save the watcher applies: the workspace as it resolved it (the file is not read again). */
  resolvedWorkspace?: Workspace;
  /** The watcher's report for the console (`/healthz` `watch`), the same object across restarts. */
  watchStatus?: WatchStatus;
}

/** What the watcher of the opened workspace needs (server/index.ts watchWorkspace, with main's trust gate). */
export interface EmbeddedWatchOptions {
  file: string;
  dataDir: string;
  current: Workspace;
  status: WatchStatus;
  /** Applies the saved workspace (in place, or by a start on the same port); throws when it cannot. */
  apply(ws: Workspace): Promise<void>;
}

export type StartServerFn = (options: EmbeddedStartOptions) => Promise<StartedServer>;

/** One data directory per workspace, so opening another workspace never migrates this one's tables. */
export function dataDirFor(userDataDir: string, workspace: string | null): string {
  if (!workspace) return join(userDataDir, 'servers', 'demo');
  const digest = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  return join(userDataDir, 'servers', digest);
}

export interface EmbeddedServerDeps {
  start: StartServerFn;
  userDataDir: string;
  onStatus: (status: EmbeddedServerStatus) => void;
  /** The running server's URL and local admin credential (nulls when none runs), told before the window hears of it. */
  onServer?: (url: string | null, localAdminToken: string | null) => void;
  /** Read at every start, so a newly chosen collection folder is served after a restart. */
  collections?: () => string;
  /** Watches an opened workspace file and its modules (none: the file is read at open only). */
  watch?: (options: EmbeddedWatchOptions) => { close(): void };
}

export class EmbeddedServer {
  private running: StartedServer | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private current: EmbeddedServerStatus = { state: 'starting', workspace: null };
  private watcher: { close(): void } | null = null;
  /** Counts opens: a save the watcher of an earlier open applies late is dropped. */
  private opens = 0;
  private readonly watchStatus = new WatchStatus();

  private deps: EmbeddedServerDeps;

  constructor(deps: EmbeddedServerDeps) {
    this.deps = deps;
  }

  get status(): EmbeddedServerStatus {
    return this.current;
  }

  /** Stops the running server (if any) and starts one for `workspace`; resolves with the outcome. */
  open(workspace: string | null): Promise<EmbeddedServerStatus> {
    return this.enqueue(async () => {
      const open = ++this.opens;
      this.watcher?.close();
      this.watcher = null;
      this.watchStatus.clear();
      await this.closeRunning();
      this.report({ state: 'starting', workspace });
      const dataDir = dataDirFor(this.deps.userDataDir, workspace);
      const watch = workspace !== null ? this.deps.watch : undefined;
      try {
        const server = await this.startOn(workspace, dataDir, 0, watch ? { watchStatus: this.watchStatus } : {});
        if (watch && workspace !== null && server.workspace) {
          this.watcher = watch({ file: workspace, dataDir, current: server.workspace, status: this.watchStatus, apply: (ws) => this.reload(open, workspace, dataDir, ws) });
        }
      } catch (err) {
        // The message may quote the workspace file (names, paths): shown as a label, without bidi controls.
        this.report({ state: 'failed', workspace, message: plainLabel((err as Error).message || String(err)) });
      }
      return this.current;
    });
  }

  /**
   * A save the watcher applies: in place when the running server can (as `serve --watch` does), else
   * the server starts again on the same port (the window keeps its URL).
   */
  private reload(open: number, workspace: string, dataDir: string, ws: Workspace): Promise<void> {
    return this.enqueue(async () => {
      if (open !== this.opens) return;
      if (this.running?.apply && (await this.running.apply(ws)) === 'applied') return;
      const port = this.running ? Number(new URL(this.running.url).port) : 0;
      await this.closeRunning();
      try {
        await this.startOn(workspace, dataDir, port, { resolvedWorkspace: ws, watchStatus: this.watchStatus });
      } catch (err) {
        this.report({ state: 'failed', workspace, message: plainLabel((err as Error).message || String(err)) });
        throw err;
      }
    });
  }

  private async startOn(workspace: string | null, dataDir: string, port: number, extra: Pick<EmbeddedStartOptions, 'resolvedWorkspace' | 'watchStatus'>): Promise<StartedServer> {
    const server = await this.deps.start({
      ...(workspace ? { workspace } : {}),
      dataDir,
      host: '127.0.0.1',
      port,
      localAdmin: true,
      serveConsole: false,
      ...(this.deps.collections ? { collections: this.deps.collections() } : {}),
      ...extra,
    });
    this.running = server;
    this.deps.onServer?.(server.url, server.localAdminToken ?? null);
    this.report({ state: 'running', url: server.url, workspace, localAdmin: Boolean(server.localAdminToken) });
    return server;
  }

  /** Starts the server again on the same workspace (after the collection folder changed). */
  restart(): Promise<EmbeddedServerStatus> {
    return this.open(this.current.workspace);
  }

  stop(): Promise<void> {
    return this.enqueue(async () => {
      this.opens++;
      this.watcher?.close();
      this.watcher = null;
      await this.closeRunning();
    });
  }

  private async closeRunning(): Promise<void> {
    const server = this.running;
    this.running = null;
    if (server) this.deps.onServer?.(null, null);
    if (server) await server.close().catch(() => undefined);
  }

  private report(status: EmbeddedServerStatus): void {
    this.current = status;
    this.deps.onStatus(status);
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
