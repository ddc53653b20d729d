/**
 * Collection folders for the browser-mode console (`serve --local-admin --collections DIR`,
 * docs/collections.md): list the collections under DIR, read one (manifest, environments without
 * secret values, requests, problems, a version that changes when any file changes), and write a
 * request file back. Only the local admin may call it, and only from a loopback socket: these routes
 * read and write files on the machine that runs the server.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { COLLECTION_FILE, parseRequestFile, REQUEST_SUFFIX, type RequestFile } from '../../shared/collections/format.ts';
import { parseJsonKeepingNumbers, stringifyKeepingNumbers } from '../../shared/big-number.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import type { IdentityService } from '../context.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import { sendFailure } from '../http/error-reply.ts';
import { refuseUnlessLocalAdmin } from '../http/local-admin-only.ts';
import { CollectionError, insidePath, readCollection, writeRequest, writeSnapshot } from './folder.ts';
import { importExport } from './import-export.ts';

export interface CollectionsRouteOptions {
  /** Who calls: only the local admin may (http/local-admin-only.ts). */
  identity: IdentityService;
  /** The folder that holds collections (or is one). */
  root: string;
}

/** What the console reads of one collection. */
export interface CollectionSnapshot {
  id: string;
  name: string;
  version: string;
  environments: Array<{ name: string; variables: Record<string, unknown>; secrets: string[] }>;
  defaultEnvironment: string | null;
  requests: Array<{ path: string; name: string; file: RequestFile }>;
  problems: string[];
}

const MAX_DEPTH = 3;

export const collectionsRoute: FastifyPluginAsync<CollectionsRouteOptions> = async (app, { identity, root: rootDir }) => {
  const root = resolve(rootDir);
  app.addHook('preHandler', async (request, reply) => {
    const refusal = await refuseUnlessLocalAdmin(identity, request, 'Collection folders');
    if (refusal) return sendFailure(reply, refusal);
    return undefined;
  });

  // A snapshot's numbers are kept as their digits when it is read (shared/big-number.ts): every
  // answer of these routes writes them back as those digits.
  app.setReplySerializer((payload) => stringifyKeepingNumbers(payload) as string);

  app.get('/collections', async () => ({ collections: listCollections(root) }));

  // The console's saved-queries export, as new collection folders under the root.
  app.post('/collections/import', async (request, reply) => {
    const body = request.body as { export?: unknown } | null;
    if (typeof body?.export !== 'string') return sendFailure(reply, new JqlFailure([jqlError('invalid_request', 'The body is {"export": "<the text of a saved-queries export file>"}')]));
    try {
      return { imported: importExport(root, body.export), collections: listCollections(root) };
    } catch (error) {
      if (error instanceof CollectionError) return sendFailure(reply, new JqlFailure([jqlError('validation_error', error.message)]));
      throw error;
    }
  });

  app.get('/collections/:id', async (request, reply) => {
    const dir = collectionDir(root, (request.params as { id: string }).id, reply);
    if (!dir) return reply;
    return snapshot(root, dir);
  });

  app.put('/collections/:id/requests', async (request, reply) => {
    const dir = collectionDir(root, (request.params as { id: string }).id, reply);
    if (!dir) return reply;
    const body = request.body as { path?: unknown; text?: unknown } | null;
    if (typeof body?.path !== 'string' || typeof body.text !== 'string' || !body.path.endsWith(REQUEST_SUFFIX)) {
      return sendFailure(reply, new JqlFailure([jqlError('invalid_request', `The body is {"path": "<name>${REQUEST_SUFFIX}", "text": "<the file>"}`)]));
    }
    // The text is checked as the runner would read it, so nothing unreadable is ever written.
    const parsed = parseRequestFile(body.text, body.path);
    if (!parsed.ok) return sendFailure(reply, new JqlFailure(parsed.errors.map((message) => jqlError('validation_error', message))));
    try {
      // A collection whose manifest cannot be read gets nothing written into it (issue 32.9).
      readCollection(dir);
    } catch (error) {
      if (!(error instanceof CollectionError)) throw error;
      return sendFailure(reply, new JqlFailure([jqlError('invalid_request', `${COLLECTION_FILE} of this collection cannot be read (${error.message}); nothing was written`)]));
    }
    try {
      writeRequest(dir, body.path, parsed.value);
    } catch (error) {
      if (error instanceof CollectionError) return sendFailure(reply, new JqlFailure([jqlError('invalid_request', error.message)]));
      throw error;
    }
    return snapshot(root, dir);
  });

  // The answer's numbers are read with their digits (shared/big-number.ts), so the file holds the
  // ids the server sent, not their doubles; only this route reads its body that way.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
      try {
        done(null, parseJsonKeepingNumbers(text as string));
      } catch (error) {
        done(Object.assign(error as Error, { statusCode: 400 }), undefined);
      }
    });
    // "Approve as snapshot": the console sends the answer as a snapshot holds it (secrets already
    // written as their variables); it goes beside its request, which must exist.
    scope.put('/collections/:id/snapshots', async (request, reply) => {
      const dir = collectionDir(root, (request.params as { id: string }).id, reply);
      if (!dir) return reply;
      const body = request.body as { path?: unknown; snapshot?: unknown } | null;
      if (typeof body?.path !== 'string' || !body.path.endsWith(REQUEST_SUFFIX) || body.snapshot === undefined) {
        return sendFailure(reply, new JqlFailure([jqlError('invalid_request', `The body is {"path": "<name>${REQUEST_SUFFIX}", "snapshot": <the approved answer>}`)]));
      }
      const path = body.path;
      if (!readCollection(dir).requests.some((r) => r.path === path)) return sendFailure(reply, new JqlFailure([jqlError('not_found', `No request ${path} in this collection`)]));
      try {
        writeSnapshot(dir, path, body.snapshot as JsonValue);
      } catch (error) {
        if (error instanceof CollectionError) return sendFailure(reply, new JqlFailure([jqlError('invalid_request', error.message)]));
        throw error;
      }
      return snapshot(root, dir);
    });
  });
};

/** Collection folders under the root (the root itself when it is one), as ids relative to it. */
export function listCollections(root: string): Array<{ id: string; name: string }> {
  const found: Array<{ id: string; name: string }> = [];
  const visit = (dir: string, depth: number) => {
    if (existsSync(join(dir, COLLECTION_FILE))) {
      try {
        found.push({ id: idOf(root, dir), name: readCollection(dir).manifest.name });
      } catch {
        found.push({ id: idOf(root, dir), name: `${idOf(root, dir)} (cannot be read)` });
      }
      return;
    }
    if (depth >= MAX_DEPTH) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') visit(join(dir, entry.name), depth + 1);
    }
  };
  if (existsSync(root)) visit(root, 0);
  return found.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** `.` for the root, else the folder's path relative to it with `/`. */
function idOf(root: string, dir: string): string {
  return relative(root, dir).split(sep).join('/') || '.';
}

function collectionDir(root: string, id: string, reply: FastifyReply): string | null {
  let dir: string;
  try {
    dir = id === '.' ? root : insidePath(root, id);
  } catch {
    sendFailure(reply, new JqlFailure([jqlError('not_found', `No collection "${id}"`)]));
    return null;
  }
  if (!existsSync(join(dir, COLLECTION_FILE))) {
    sendFailure(reply, new JqlFailure([jqlError('not_found', `No collection "${id}"`)]));
    return null;
  }
  return dir;
}

export function snapshot(root: string, dir: string): CollectionSnapshot {
  const folder = readCollection(dir);
  return {
    id: idOf(root, dir),
    name: folder.manifest.name,
    version: versionOf(dir),
    defaultEnvironment: folder.manifest.defaultEnvironment ?? null,
    environments: [...folder.environments].map(([name, environment]) => ({ name, variables: environment.variables, secrets: environment.secrets })),
    requests: folder.requests,
    problems: folder.problems,
  };
}

/** Changes whenever a file of the collection is added, removed or written (a `git pull` included). */
export function versionOf(dir: string): string {
  const hash = createHash('sha256');
  const visit = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      const child = join(path, name);
      const info = lstatSync(child);
      if (info.isDirectory()) visit(child);
      else if (info.isFile()) hash.update(`${relative(dir, child)}\0${info.size}\0${statSync(child).mtimeMs}\n`);
    }
  };
  visit(dir);
  return hash.digest('base64url').slice(0, 16);
}
