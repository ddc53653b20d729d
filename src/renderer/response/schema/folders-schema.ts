/**
 * The boundary for the collection folders the console's own server serves (`/collections`, one
 * folder, the import): each answer read with a schema like every other server answer, names and
 * messages cleaned (server-text.ts), and what does not fit left out and said. A request file is
 * checked by the collection format's own parser (shared/collections/format.ts), so the console runs
 * only what a folder on disk could hold; a folder's misfits join its `problems`, which the panel shows.
 */
import * as v from 'valibot';
import { parseRequestFile, type RequestFile } from '../../../shared/collections/format.ts';
import type { JsonValue } from '../../../shared/protocol.ts';
import { count, json, jsonObject, label, message, record } from './fields.ts';
import { lenient, lenientList, readPart } from './lenient.ts';

export interface FolderSummary {
  id: string;
  name: string;
}

export interface FolderSnapshot {
  id: string;
  name: string;
  version: string;
  defaultEnvironment: string | null;
  environments: Array<{ name: string; variables: Record<string, JsonValue>; secrets: string[] }>;
  requests: Array<{ path: string; name: string; file: RequestFile; snapshot?: { approved: JsonValue | null } }>;
  problems: string[];
}

export interface ImportedFolder {
  name: string;
  folder: string;
  requests: number;
}

/** An id goes back into URLs as sent: kept exactly, only bounded. */
const folderId = v.pipe(v.string(), v.minLength(1), v.maxLength(4096));
/** A request's path inside its folder, as the server names it for writing back. */
const requestPath = v.pipe(v.string(), v.minLength(1), v.maxLength(4096));

const summarySchema = record({ id: folderId, name: label });

/** A request file in the form the server answers it (`document` as text), checked by the format's parser. */
const requestFileSchema = v.pipe(
  v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x) && typeof (x as { document?: unknown }).document === 'string'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const { document, ...rest } = dataset.value;
    const parsed = parseRequestFile(JSON.stringify({ ...rest, documentLines: (document as string).split('\n') }), 'the request');
    if (parsed.ok) return parsed.value;
    addIssue({ message: parsed.errors.join('; ') });
    return NEVER;
  }),
);

/** A request's approved snapshot, kept as the server read it from its file (null: none approved yet). */
const snapshotFileSchema = record({ approved: v.nullable(json) });

const requestSchema = record({ path: requestPath, name: label, file: requestFileSchema, snapshot: v.optional(snapshotFileSchema) });

const environmentSchema = record({
  name: label,
  variables: v.optional(lenient(jsonObject, {}, 'variables', 'an object of name to value'), {}),
  secrets: v.optional(lenientList(label, 'secrets', 'a variable name'), []),
});

const snapshotSchema = record({
  id: folderId,
  name: label,
  version: v.optional(lenient(v.pipe(v.string(), v.maxLength(256)), '', 'version', 'text'), ''),
  defaultEnvironment: v.optional(lenient(v.nullable(label), null, 'defaultEnvironment', 'an environment name or null'), null),
  environments: v.optional(lenientList(environmentSchema, 'environments', 'an environment {name, variables, secrets}'), []),
  requests: v.optional(lenientList(requestSchema, 'requests', 'a request {path, name, file} that a collection folder could hold'), []),
  problems: v.optional(lenientList(message, 'problems', 'text'), []),
});

const listSchema = record({ collections: lenientList(summarySchema, 'collections', 'a folder {id, name}') });

const importedSchema = record({
  imported: lenientList(record({ name: label, folder: label, requests: v.optional(lenient(count, 0, 'requests', 'a count'), 0) }), 'imported', 'a folder {name, folder, requests}'),
});

/** The folders the server serves; null when the answer is no such list. */
export function readFolderList(body: unknown): FolderSummary[] | null {
  return readPart(listSchema, body, null, '', 'a list of folders {collections: [...]}').value?.collections ?? null;
}

/** One folder; null when the answer is no folder at all. What did not fit is one of its problems. */
export function readFolderSnapshot(body: unknown): FolderSnapshot | null {
  const { value, misfits } = readPart(snapshotSchema, body, null, '', 'a collection folder {id, name, requests, …}');
  if (!value) return null;
  return { ...value, problems: [...value.problems, ...misfits.map((m) => m.sentence)] };
}

/** The folders an import made; null when the answer says nothing of them. */
export function readImported(body: unknown): ImportedFolder[] | null {
  return readPart(importedSchema, body, null, '', 'the folders made {imported: [...]}').value?.imported ?? null;
}
