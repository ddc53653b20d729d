/**
 * "Reproduce locally" as a job the console polls: a clone of the remote tab's query into a new data
 * directory under `root`, with its progress, a cancel, and at the end a server for the copy (started
 * by `serve`, the embedded server's own start) that the console adds as a `local` connection. Used by
 * the browser-mode route (clone-route.ts) and by Electron main; both reach it only as the local admin.
 * The copy's local admin token stays here and with whoever `onServed` hands it to (main's vault); the
 * statuses the page reads never hold it (docs/protocol.md "The local admin").
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { CLONE_WORKSPACE_FILE, copyPath, DEFAULT_MAX_RECORDS, type CloneConnection, type CloneJobStatus, type CloneProgress, type CloneRequest } from '../../shared/clone.ts';
import { parseJsonKeepingNumbers } from '../../shared/big-number.ts';
import { tooDeep } from '../../shared/json-depth.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import { cloneRemote } from './clone-remote.ts';
import { CloneCancelledError, RemoteServer } from './remote-server.ts';

/**
 * Starts a server on the copy: 127.0.0.1, a free port, `basePath`, with a local admin (whose token it
 * returns). No CORS: no page calls it directly.
 */
export type ServeCopy = (options: { workspace: string; dataDir: string; basePath: string }) => Promise<{ url: string; localAdminToken?: string; close(): Promise<void> }>;

/** A copy's server as its holder sees it: where it listens and its local admin's token. */
export interface ServedCopy {
  connectionId: string;
  /** `http://127.0.0.1:port{basePath}` */
  url: string;
  localAdminToken: string;
}

export interface CloneJobsOptions {
  /** Folder that receives one data directory per copy. */
  root: string;
  serve: ServeCopy;
  /**
   * The base path of the server whose routes forward to the copies (browser mode's console server):
   * each copy is served under `copyPath(basePath, connectionId)`, the same path the console answers
   * at, so the copy's file URLs (paths under its base) resolve on the console's origin too.
   */
  basePath?: string;
  /** Called once a copy's server is up, before its status says done: main registers it with its token. */
  onServed?: (copy: ServedCopy) => void;
}

interface Job {
  status: CloneJobStatus;
  controller: AbortController;
}

/** Clones running at once; more is refused (each holds its records in memory while it runs). */
const MAX_RUNNING = 2;

export class CloneJobError extends Error {
  override readonly name = 'CloneJobError';
}

export class CloneJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly servers: Array<{ close(): Promise<void> }> = [];
  private readonly copies = new Map<string, ServedCopy>();
  private readonly options: CloneJobsOptions;
  private closed = false;

  constructor(options: CloneJobsOptions) {
    this.options = options;
  }

  /** Starts a clone. */
  start(request: CloneRequest): string {
    if (this.closed) throw new CloneJobError('The server is stopping');
    const query = readCloneQuery(request);
    if ([...this.jobs.values()].filter((job) => job.status.state === 'running').length >= MAX_RUNNING) {
      throw new CloneJobError(`${MAX_RUNNING} copies are being made already; wait for one to finish`);
    }
    const id = randomBytes(9).toString('base64url');
    const controller = new AbortController();
    const progress: CloneProgress = { phase: 'schema', level: 0, requests: 0, models: [] };
    const job: Job = { status: { state: 'running', progress }, controller };
    this.jobs.set(id, job);
    void this.run(job, request, query, id);
    return id;
  }

  status(id: string): CloneJobStatus | null {
    return this.jobs.get(id)?.status ?? null;
  }

  /** The server of a finished copy, by its connection id (the console's forwarding route asks). */
  servedCopy(connectionId: string): ServedCopy | null {
    return this.copies.get(connectionId) ?? null;
  }

  cancel(id: string): CloneJobStatus | null {
    const job = this.jobs.get(id);
    if (!job) return null;
    job.controller.abort();
    return job.status;
  }

  /** Cancels running clones and stops the copies' servers (the console's server is stopping). */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.jobs.values()) job.controller.abort();
    this.copies.clear();
    await Promise.all(this.servers.splice(0).map((server) => server.close().catch(() => undefined)));
  }

  private async run(job: Job, request: CloneRequest, query: JsonValue, id: string): Promise<void> {
    const out = join(this.options.root, `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}`);
    let progress = job.status.progress;
    const update = (patch: Partial<CloneProgress>) => {
      progress = { ...progress, ...patch };
      if (job.status.state === 'running') job.status = { state: 'running', progress };
    };
    try {
      const remote = new RemoteServer({ baseUrl: request.url, token: request.token, signal: job.controller.signal, onRateLimited: (ms) => update({ rateLimitedMs: ms }) });
      const manifest = await cloneRemote({
        remote,
        query,
        depth: request.depth,
        maxRecords: request.maxRecords ?? DEFAULT_MAX_RECORDS,
        withFiles: request.withFiles,
        redact: request.redact,
        out,
        onProgress: (next) => update({ ...next, rateLimitedMs: undefined }),
      });
      if (job.controller.signal.aborted) throw new CloneCancelledError();
      const connectionId = `copy-${id}`;
      const server = await this.options.serve({ workspace: join(out, CLONE_WORKSPACE_FILE), dataDir: out, basePath: copyPath(this.options.basePath ?? '', connectionId) });
      if (this.closed) {
        await server.close();
        throw new CloneCancelledError();
      }
      this.servers.push(server);
      if (!server.localAdminToken) throw new Error('The copy\'s server started without a local admin');
      const served: ServedCopy = { connectionId, url: server.url, localAdminToken: server.localAdminToken };
      this.copies.set(connectionId, served);
      this.options.onServed?.(served);
      const connection: CloneConnection = { name: request.name, url: server.url, connectionId, dataDir: out };
      job.status = { state: 'done', progress, connection, manifest };
    } catch (error) {
      job.status = error instanceof CloneCancelledError ? { state: 'cancelled', progress } : { state: 'failed', progress, message: (error as Error).message };
    }
  }
}

/** Checks the request and reads its query, a 64-bit id's digits kept (shared/big-number.ts). */
export function readCloneQuery(request: CloneRequest): JsonValue {
  if (typeof request.url !== 'string' || request.url === '') throw new CloneJobError('"url" must be the remote connection\'s base URL');
  if (request.token !== null && typeof request.token !== 'string') throw new CloneJobError('"token" must be a string or null');
  if (!Number.isSafeInteger(request.depth)) throw new CloneJobError('"depth" must be a whole number');
  if (request.maxRecords !== undefined && !Number.isSafeInteger(request.maxRecords)) throw new CloneJobError('"maxRecords" must be a whole number');
  if (typeof request.withFiles !== 'boolean') throw new CloneJobError('"withFiles" must be true or false');
  if (!Array.isArray(request.redact) || request.redact.some((entry) => typeof entry !== 'string')) throw new CloneJobError('"redact" must be a list of field names');
  if (typeof request.name !== 'string' || request.name.trim() === '' || request.name.length > 200) throw new CloneJobError('"name" must name the new connection');
  if (typeof request.query !== 'string') throw new CloneJobError('"query" must be the query document\'s text');
  const deep = tooDeep(request.query, '"query"');
  if (deep !== null) throw new CloneJobError(deep);
  try {
    return parseJsonKeepingNumbers(request.query) as JsonValue;
  } catch (error) {
    throw new CloneJobError(`"query" is not valid JSON (${(error as Error).message})`);
  }
}
