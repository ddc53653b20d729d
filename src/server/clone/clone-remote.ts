/**
 * `jql-console clone` and the console's "Reproduce locally": copies what a query reads on a source
 * server into a new local data directory that `serve` runs as it is. The source is only read
 * (describe, then retrieves); the copy gets the source's schema (workspace.json), the records with
 * their ids, the file rows (and bytes with `withFiles`) and a `clone-manifest.json` saying what was
 * copied, redacted, emptied and left out. A failure or a cancel leaves no copy behind.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringifyKeepingNumbers } from '../../shared/big-number.ts';
import { CLONE_MANIFEST_FILE, CLONE_WORKSPACE_FILE, MAX_CLONE_DEPTH, type CloneManifest, type CloneProgress } from '../../shared/clone.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import { isPlainObject } from '../query/normalize.ts';
import { createState } from '../state.ts';
import { DEFAULT_LIMITS } from '../workspace/limits.ts';
import { loadWorkspace } from '../workspace/resolve.ts';
import type { Workspace } from '../workspace/types.ts';
import { copyFiles } from './copy-files.ts';
import { manifestOf } from './manifest.ts';
import { prepareRows } from './prepare-rows.ts';
import { QueryFileError, rootQueries, type RootQuery } from './query-roots.ts';
import { Redactor } from './redact.ts';
import { checkRedactionMatched, planRedaction } from './redaction-plan.ts';
import type { RemoteServer } from './remote-server.ts';
import { walk } from './walk.ts';
import { workspaceFromDescribe } from './workspace-from-describe.ts';
import { writeLocal } from './write-local.ts';

export interface CloneOptions {
  /** The source, with its credentials already in place (see credentials.ts). */
  remote: RemoteServer;
  query: JsonValue;
  depth: number;
  maxRecords: number;
  withFiles: boolean;
  redact: readonly string[];
  /** The new data directory: created, or an empty folder. */
  out: string;
  /** All the files' bytes together at most (default DEFAULT_MAX_CLONE_FILES_BYTES). */
  maxFilesBytes?: number;
  onProgress?: (progress: CloneProgress) => void;
  /** A sentence worth telling the person at once (a depth shorter than the query's reach). */
  onNotice?: (message: string) => void;
  redactor?: Redactor;
}

export class CloneUsageError extends Error {
  override readonly name = 'CloneUsageError';
}

/** Protocol defaults (docs/protocol.md "`__meta__` keys", "Errors") for a source whose describe does not give its limits. */
const DEFAULT_PAGE = 1000;
const DEFAULT_PER_REQUEST = 64;
/** Subqueries per request at most, whatever the source allows: keeps each answer far from its size limit. */
const MAX_PER_REQUEST = 32;
export const MAX_RECORDS_LIMIT = 1_000_000;
/** The files of one clone together: 1 GiB, so a source cannot fill the disk. */
export const DEFAULT_MAX_CLONE_FILES_BYTES = 1024 * 1024 * 1024;

export async function cloneRemote(options: CloneOptions): Promise<CloneManifest> {
  checkOptions(options);
  const roots = parseRoots(options.query);
  const out = resolve(options.out);
  const created = prepareOut(out);
  const progress: CloneProgress = { phase: 'schema', level: 0, requests: 0, models: [] };
  const report = (patch: Partial<CloneProgress> = {}) => {
    Object.assign(progress, patch, { requests: options.remote.requests });
    options.onProgress?.({ ...progress, models: progress.models.map((m) => ({ ...m })) });
  };
  let state: Awaited<ReturnType<typeof createState>>['state'] | null = null;
  try {
    report();
    const describe = await options.remote.describe();
    const schema = workspaceFromDescribe(describe, options.remote.baseUrl);
    const workspaceFile = join(out, CLONE_WORKSPACE_FILE);
    writeFileSync(workspaceFile, `${JSON.stringify(schema.workspace, null, 2)}\n`);
    const ws = loadWorkspace(workspaceFile);
    checkRoots(ws, roots);
    const redaction = planRedaction(ws, options.redact);
    const reach = Math.max(...roots.map((root) => root.reach));
    const notes = [...schema.notes];
    if (reach > options.depth) {
      const notice = `The query looks ${reach} relation level(s) deep and --depth is ${options.depth}: records past level ${options.depth} are copied only where a reference needs them.`;
      notes.push(notice);
      options.onNotice?.(notice);
    }

    const limits = isPlainObject(describe) && isPlainObject(describe.limits) ? describe.limits : {};
    report({ phase: 'records' });
    const walked = await walk(options.remote, {
      ws,
      roots,
      depth: options.depth,
      maxRecords: options.maxRecords,
      pageSize: positive(limits.maxLimit) ?? DEFAULT_PAGE,
      perRequest: Math.min(MAX_PER_REQUEST, positive(limits.maxQueriesPerRequest) ?? DEFAULT_PER_REQUEST),
      onProgress: ({ level, counts }) => report({ level, models: [...counts].map(([namespace, c]) => ({ namespace, ...c })) }),
    });

    const prepared = prepareRows(ws, walked.records, redaction, options.redactor ?? new Redactor());
    checkRedactionMatched(redaction, prepared.report.redactedKeys);
    ({ state } = await createState({ workspace: workspaceFile, dataDir: out, env: {} }));
    report({ phase: 'files' });
    const files = await copyFiles(state.fileStore, options.remote, prepared.rows.flatMap((row) => [...row.files.values()]), {
      download: options.withFiles,
      // The local server's limit decides, not the one the source's describe claims.
      maxFileBytes: DEFAULT_LIMITS.maxFileBytes,
      maxTotalBytes: options.maxFilesBytes ?? DEFAULT_MAX_CLONE_FILES_BYTES,
      onFile: (done, total) => report({ files: { done, total } }),
    });
    report({ phase: 'writing' });
    try {
      await writeLocal(state, prepared, files.uploads);
    } finally {
      for (const sha256 of files.held) state.fileStore.release(sha256);
    }
    const manifest = manifestOf({ options, walked, prepared, files: files.report, notes, source: describe, requests: options.remote.requests, redacted: redaction.listed });
    // The query's 64-bit ids are written as their digits, as given.
    writeFileSync(join(out, CLONE_MANIFEST_FILE), `${stringifyKeepingNumbers(manifest, 2)}\n`);
    state.db.checkpoint();
    report({ phase: 'done' });
    return manifest;
  } catch (error) {
    state?.db.close();
    state = null;
    removeCopy(out, created);
    throw error;
  } finally {
    state?.db.close();
  }
}

function checkOptions(options: CloneOptions): void {
  if (!Number.isSafeInteger(options.depth) || options.depth < 0 || options.depth > MAX_CLONE_DEPTH) throw new CloneUsageError(`--depth must be a whole number from 0 to ${MAX_CLONE_DEPTH}, not ${options.depth}`);
  if (!Number.isSafeInteger(options.maxRecords) || options.maxRecords < 1 || options.maxRecords > MAX_RECORDS_LIMIT) {
    throw new CloneUsageError(`--max-records must be a whole number from 1 to ${MAX_RECORDS_LIMIT}, not ${options.maxRecords}`);
  }
}

function parseRoots(query: JsonValue): RootQuery[] {
  try {
    return rootQueries(query);
  } catch (error) {
    if (error instanceof QueryFileError) throw new CloneUsageError(error.message);
    throw error;
  }
}

function checkRoots(ws: Workspace, roots: readonly RootQuery[]): void {
  for (const root of roots) {
    const known = root.schema === 'nosql' ? ws.collections.has(root.namespace) : ws.models.has(root.namespace);
    if (!known) throw new CloneUsageError(`The query reads ${root.namespace}, which the source's describe does not list as a ${root.schema === 'nosql' ? 'collection' : 'model'}`);
  }
}

/** Creates the folder, or checks that it is empty; true when it was created here. */
function prepareOut(out: string): boolean {
  if (!existsSync(out)) {
    mkdirSync(out, { recursive: true });
    return true;
  }
  let entries: string[];
  try {
    entries = readdirSync(out);
  } catch {
    throw new CloneUsageError(`--out ${out} is not a folder`);
  }
  if (entries.length > 0) throw new CloneUsageError(`--out ${out} is not empty: the copy goes into a new or empty folder`);
  return false;
}

function removeCopy(out: string, created: boolean): void {
  if (created) {
    rmSync(out, { recursive: true, force: true });
    return;
  }
  for (const entry of readdirSync(out)) rmSync(join(out, entry), { recursive: true, force: true });
}

function positive(value: JsonValue | undefined): number | undefined {
  return Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : undefined;
}
