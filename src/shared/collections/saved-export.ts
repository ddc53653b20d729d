/**
 * The JSON file the console's saved queries travel in (an export). It imports into the console and
 * into collection folders (server/collections/import-export.ts). One format for one collection or many:
 * `{"format": "jql-console/collections", "version": 1, "collections": [{"name", "queries":
 * [{"name", "document", "description"?}]}]}`. Documents are kept as text, since a document with
 * `{{variables}}` need not be JSON until they are filled. Environments are never exported: they
 * are per connection and may hold secrets.
 */
export const FILE_FORMAT = 'jql-console/collections';
export const FILE_VERSION = 1;
export const MAX_NAME = 200;
export const MAX_DOCUMENT = 10 * 1024 * 1024;
const MAX_COLLECTIONS = 1000;
const MAX_QUERIES = 10_000;

export interface ImportedQuery {
  name: string;
  document: string;
  description: string;
}

export interface ImportedCollection {
  name: string;
  queries: ImportedQuery[];
}

export type ParsedFile = { ok: true; collections: ImportedCollection[] } | { ok: false; errors: string[] };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function nameProblem(value: unknown, at: string): string | null {
  if (typeof value !== 'string' || value.trim() === '') return `${at} must be a non-empty string`;
  if (value.length > MAX_NAME) return `${at} is longer than ${MAX_NAME} characters`;
  return null;
}

export function parseCollectionsFile(text: string): ParsedFile {
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch (err) {
    return { ok: false, errors: [`The file is not JSON: ${(err as Error).message}`] };
  }
  if (!isObj(file)) return { ok: false, errors: ['The file must hold a JSON object'] };
  if (file.format !== FILE_FORMAT) return { ok: false, errors: [`This is not a JQL Console collections file (format must be "${FILE_FORMAT}")`] };
  if (file.version !== FILE_VERSION) return { ok: false, errors: [`Version ${JSON.stringify(file.version)} is not supported (this console reads version ${FILE_VERSION})`] };
  if (!Array.isArray(file.collections)) return { ok: false, errors: ['collections must be an array'] };
  if (file.collections.length > MAX_COLLECTIONS) return { ok: false, errors: [`The file holds more than ${MAX_COLLECTIONS} collections`] };

  const errors: string[] = [];
  const collections: ImportedCollection[] = [];
  let total = 0;
  file.collections.forEach((c: unknown, ci: number) => {
    const at = `collections[${ci}]`;
    if (!isObj(c)) {
      errors.push(`${at} must be an object`);
      return;
    }
    const problem = nameProblem(c.name, `${at}.name`);
    if (problem) errors.push(problem);
    if (!Array.isArray(c.queries)) {
      errors.push(`${at}.queries must be an array`);
      return;
    }
    total += c.queries.length;
    const queries: ImportedQuery[] = [];
    c.queries.forEach((q: unknown, qi: number) => {
      const qat = `${at}.queries[${qi}]`;
      if (!isObj(q)) {
        errors.push(`${qat} must be an object`);
        return;
      }
      const qProblem = nameProblem(q.name, `${qat}.name`);
      if (qProblem) errors.push(qProblem);
      if (typeof q.document !== 'string') errors.push(`${qat}.document must be a string (the query text)`);
      else if (q.document.length > MAX_DOCUMENT) errors.push(`${qat}.document is larger than 10 MiB`);
      if (q.description !== undefined && typeof q.description !== 'string') errors.push(`${qat}.description must be a string`);
      if (!qProblem && typeof q.document === 'string') {
        queries.push({ name: (q.name as string).trim(), document: q.document, description: typeof q.description === 'string' ? q.description : '' });
      }
    });
    if (!problem) collections.push({ name: (c.name as string).trim(), queries });
  });
  if (total > MAX_QUERIES) errors.push(`The file holds more than ${MAX_QUERIES} queries`);
  if (errors.length > 0) return { ok: false, errors: errors.slice(0, 20).concat(errors.length > 20 ? [`…and ${errors.length - 20} more problems`] : []) };
  return { ok: true, collections };
}
