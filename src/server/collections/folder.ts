/**
 * A collection folder on disk (docs/collections.md): reads its manifest, environments and the tree of
 * request files, and writes a request file back. Paths handed in from outside (a CLI argument, the
 * console's edit) are resolved inside the folder only: `..`, absolute paths and symbolic links out of
 * it are refused. Writes go to a temporary file renamed over the old one, so a crash never leaves a
 * half-written request.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import {
  COLLECTION_FILE,
  ENVIRONMENTS_DIR,
  parseEnvironmentFile,
  parseManifest,
  parseRequestFile,
  REQUEST_SUFFIX,
  requestName,
  runOrder,
  serializeRequestFile,
  type CollectionManifest,
  type EnvironmentFile,
  type RequestFile,
} from '../../shared/collections/format.ts';
import type { RunnableRequest } from '../../shared/collections/run.ts';
import { serializeSnapshot, snapshotPathOf } from '../../shared/collections/snapshot.ts';
import { parseJsonKeepingNumbers } from '../../shared/big-number.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import { FileReadError, readBoundedFile } from '../read-bounded-file.ts';
import { tooDeep } from '../../shared/json-depth.ts';

export interface CollectionFolder {
  root: string;
  manifest: CollectionManifest;
  environments: Map<string, EnvironmentFile>;
  /** Every request, in run order: a folder's files by name, then its sub-folders by name. */
  requests: RunnableRequest[];
  /** Files that could not be read, each with its reasons (a run refuses to start with any). */
  problems: string[];
}

export class CollectionError extends Error {
  override readonly name = 'CollectionError';
}

const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** A file of the collection, opened once and checked there (read-bounded-file.ts): inside `root`, regular, at most 10 MiB. */
function readText(root: string, path: string): string {
  const label = toPosix(relative(root, path));
  try {
    const text = readBoundedFile(path, { maxBytes: MAX_FILE_BYTES, inside: root, label });
    const deep = tooDeep(text, label);
    if (deep !== null) throw new CollectionError(deep);
    return text;
  } catch (error) {
    if (error instanceof FileReadError) throw new CollectionError(error.message);
    throw error;
  }
}

export function readCollection(dir: string): CollectionFolder {
  const root = resolve(dir);
  if (!existsSync(root) || !lstatSync(root).isDirectory()) throw new CollectionError(`${dir} is not a folder`);
  const manifestPath = join(root, COLLECTION_FILE);
  if (!existsSync(manifestPath) && !isLink(manifestPath)) throw new CollectionError(`${dir} is not a collection: it has no ${COLLECTION_FILE}`);
  const manifest = parseManifest(readText(root, manifestPath));
  if (!manifest.ok) throw new CollectionError(manifest.errors.join('; '));
  const problems: string[] = [];
  const environments = new Map<string, EnvironmentFile>();
  const envDir = join(root, ENVIRONMENTS_DIR);
  if (existsSync(envDir) && lstatSync(envDir).isDirectory()) {
    for (const name of runOrder(readdirSync(envDir))) {
      if (!name.endsWith('.json') || !lstatSync(join(envDir, name)).isFile()) continue;
      const parsed = parseEnvironmentFile(readText(root, join(envDir, name)), `${ENVIRONMENTS_DIR}/${name}`);
      if (parsed.ok) environments.set(name.slice(0, -'.json'.length), parsed.value);
      else problems.push(...parsed.errors);
    }
  }
  const requests: RunnableRequest[] = [];
  walk(root, root, requests, problems);
  return { root, manifest: manifest.value, environments, requests, problems };
}

function walk(root: string, dir: string, requests: RunnableRequest[], problems: string[]): void {
  const entries = readdirSync(dir, { withFileTypes: true });
  const files = runOrder(entries.filter((e) => e.isFile() && e.name.endsWith(REQUEST_SUFFIX)).map((e) => e.name));
  const folders = runOrder(entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && !(dir === root && e.name === ENVIRONMENTS_DIR)).map((e) => e.name));
  for (const name of files) {
    const path = toPosix(relative(root, join(dir, name)));
    const parsed = parseRequestFile(readText(root, join(dir, name)), path);
    if (!parsed.ok) {
      problems.push(...parsed.errors);
      continue;
    }
    const request: RunnableRequest = { path, name: requestName(name), file: parsed.value };
    const snapshot = readSnapshot(root, path, problems);
    // A request carries a snapshot when its file is there, or when it asks for one and none is approved yet.
    if (snapshot !== undefined) request.snapshot = { approved: snapshot };
    else if (parsed.value.snapshot) request.snapshot = { approved: null };
    requests.push(request);
  }
  for (const name of folders) walk(root, join(dir, name), requests, problems);
}

const toPosix = (path: string): string => path.split(sep).join('/');

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A path inside the collection given from outside, resolved strictly inside it. */
export function insidePath(root: string, path: string): string {
  const target = resolve(root, path);
  const rel = relative(root, target);
  if (rel === '' || rel.startsWith('..') || resolve(root, rel) !== target) throw new CollectionError(`${path} is outside the collection`);
  // A symbolic link inside the folder must not lead out of it.
  let existing = target;
  while (!existsSync(existing)) existing = dirname(existing);
  const real = realpathSync(existing);
  const realRoot = realpathSync(root);
  if (real !== realRoot && !real.startsWith(realRoot + sep)) throw new CollectionError(`${path} leads outside the collection`);
  return target;
}

/** The requests that PATHS select: files, or folders (every request under them). None: all. */
export function selectRequests(folder: CollectionFolder, paths: readonly string[]): RunnableRequest[] {
  if (paths.length === 0) return folder.requests;
  const wanted = paths.map((path) => toPosix(relative(folder.root, insidePath(folder.root, path))));
  for (const path of wanted) {
    if (!folder.requests.some((r) => r.path === path || r.path.startsWith(`${path}/`))) throw new CollectionError(`${path} holds no request of this collection`);
  }
  return folder.requests.filter((r) => wanted.some((path) => r.path === path || r.path.startsWith(`${path}/`)));
}

/** Writes a request file atomically (a temporary file renamed over the old one). */
export function writeRequest(root: string, path: string, request: RequestFile): void {
  if (!path.endsWith(REQUEST_SUFFIX)) throw new CollectionError(`A request file's name ends in ${REQUEST_SUFFIX}`);
  const target = insidePath(root, path);
  mkdirSync(dirname(target), { recursive: true });
  writeAtomically(target, serializeRequestFile(request));
}

/** A temporary file renamed over the target: a crash never leaves half a file. */
function writeAtomically(target: string, text: string): void {
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { flag: 'wx' });
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** A request's approved snapshot (docs/collections.md "Snapshots"), or undefined when it has none. */
function readSnapshot(root: string, requestPath: string, problems: string[]): JsonValue | undefined {
  const path = snapshotPathOf(requestPath);
  const file = join(root, path);
  if (!existsSync(file) || !lstatSync(file).isFile()) return undefined;
  try {
    // Numbers keep their digits: an approved id above 2^53 is compared as the id it is.
    return parseJsonKeepingNumbers(readText(root, file)) as JsonValue;
  } catch (error) {
    problems.push(`${path} is not valid JSON: ${(error as Error).message}`);
    return undefined;
  }
}

/** Writes (approves) a request's snapshot, atomically, beside the request file. */
export function writeSnapshot(root: string, requestPath: string, snapshot: JsonValue): string {
  if (!requestPath.endsWith(REQUEST_SUFFIX)) throw new CollectionError(`A request file's name ends in ${REQUEST_SUFFIX}`);
  const path = snapshotPathOf(requestPath);
  writeAtomically(insidePath(root, path), serializeSnapshot(snapshot));
  return path;
}
