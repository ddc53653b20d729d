/**
 * `clone:*`: "Reproduce locally" in the desktop app. Main runs the clone (server code) and starts a
 * server on the copy like the embedded one; the page polls the job's progress and may cancel it.
 */
import type { CloneJobStatus, CloneRequest } from '../../shared/clone.ts';
import type { Handlers } from './register.ts';

export interface CloneJobsLike {
  start(request: CloneRequest): string;
  status(id: string): CloneJobStatus | null;
  cancel(id: string): CloneJobStatus | null;
}

export function cloneHandlers(jobs: CloneJobsLike): Pick<Handlers, 'clone:start' | 'clone:status' | 'clone:cancel'> {
  return {
    'clone:start': (request) => ({ id: jobs.start(request) }),
    'clone:status': (id) => jobs.status(id),
    'clone:cancel': (id) => jobs.cancel(id),
  };
}

export class CloneRequestError extends Error {
  override readonly name = 'CloneRequestError';
}

/** The query travels as its text; a megabyte is far more than any query a tab holds. */
const MAX_QUERY_CHARS = 1024 * 1024;

/** The renderer is not trusted: the request's shape is checked before main acts on it. */
export function validateCloneRequest(value: unknown): CloneRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CloneRequestError('Invalid clone request.');
  const v = value as Record<string, unknown>;
  const text = (what: string, item: unknown, max: number): string => {
    if (typeof item !== 'string' || item.length === 0 || item.length > max) throw new CloneRequestError(`Invalid ${what}.`);
    return item;
  };
  if (v.token !== null && (typeof v.token !== 'string' || v.token.length > 8192)) throw new CloneRequestError('Invalid token.');
  if (!Number.isSafeInteger(v.depth) || (v.maxRecords !== undefined && !Number.isSafeInteger(v.maxRecords))) throw new CloneRequestError('Invalid depth or record cap.');
  if (typeof v.withFiles !== 'boolean') throw new CloneRequestError('Invalid files choice.');
  if (!Array.isArray(v.redact) || v.redact.length > 200 || v.redact.some((entry) => typeof entry !== 'string' || entry.length > 200)) throw new CloneRequestError('Invalid redaction list.');
  if (typeof v.query !== 'string') throw new CloneRequestError('Invalid query: it is the document\'s text.');
  if (v.query.length > MAX_QUERY_CHARS) throw new CloneRequestError('The query is too large.');
  return {
    url: text('URL', v.url, 8192),
    token: v.token as string | null,
    query: v.query,
    depth: v.depth as number,
    ...(v.maxRecords !== undefined ? { maxRecords: v.maxRecords as number } : {}),
    withFiles: v.withFiles,
    redact: v.redact as string[],
    name: text('connection name', v.name, 200),
  };
}
