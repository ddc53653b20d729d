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

export interface StartedServer {
  url: string;
  close(): Promise<void>;
  localAdminToken?: string;
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
}

export class EmbeddedServer {
  private running: StartedServer | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private current: EmbeddedServerStatus = { state: 'starting', workspace: null };

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
      await this.closeRunning();
      this.report({ state: 'starting', workspace });
      try {
        const server = await this.deps.start({
          ...(workspace ? { workspace } : {}),
          dataDir: dataDirFor(this.deps.userDataDir, workspace),
          host: '127.0.0.1',
          port: 0,
          localAdmin: true,
          serveConsole: false,
          ...(this.deps.collections ? { collections: this.deps.collections() } : {}),
        });
        this.running = server;
        this.deps.onServer?.(server.url, server.localAdminToken ?? null);
        this.report({ state: 'running', url: server.url, workspace, localAdmin: Boolean(server.localAdminToken) });
      } catch (err) {
        // The message may quote the workspace file (names, paths): shown as a label, without bidi controls.
        this.report({ state: 'failed', workspace, message: plainLabel((err as Error).message || String(err)) });
      }
      return this.current;
    });
  }

  /** Starts the server again on the same workspace (after the collection folder changed). */
  restart(): Promise<EmbeddedServerStatus> {
    return this.open(this.current.workspace);
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.closeRunning());
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
