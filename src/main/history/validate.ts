/**
 * Checks what the renderer sends on the history channels before it reaches SQLite: IPC input is
 * untrusted (a compromised renderer can send anything), so every field is typed and bounded here.
 */
import { MAX_PAGE, type HistoryQuery, type NewHistoryRun } from '../../shared/history.ts';

export class HistoryInputError extends Error {
  override readonly name = 'HistoryInputError';
}

/** A query document larger than this is not kept (the server's default body limit is 10 MiB). */
export const MAX_DOCUMENT_CHARS = 10 * 1024 * 1024;
const MAX_SHORT = 1024;
const MAX_ID = 256;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(o: Obj, key: string, max: number): string {
  const v = o[key];
  if (typeof v !== 'string') throw new HistoryInputError(`${key} must be a string`);
  if (v.length > max) throw new HistoryInputError(`${key} is longer than ${max} characters`);
  return v;
}

function num(o: Obj, key: string, { integer = false, min = 0 } = {}): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isSafeInteger(v)) || v < min) {
    throw new HistoryInputError(`${key} must be a${integer ? 'n integer' : ' number'} ≥ ${min}`);
  }
  return v;
}

export function parseNewRun(value: unknown): NewHistoryRun {
  if (!isObj(value)) throw new HistoryInputError('A run must be an object');
  return {
    connectionId: str(value, 'connectionId', MAX_ID),
    connectionName: str(value, 'connectionName', MAX_SHORT),
    document: str(value, 'document', MAX_DOCUMENT_CHARS),
    status: num(value, 'status', { integer: true }),
    timeMs: num(value, 'timeMs'),
    size: num(value, 'size', { integer: true }),
    summary: str(value, 'summary', MAX_SHORT),
    at: num(value, 'at', { integer: true }),
    ...(value.tabId !== undefined ? { tabId: str(value, 'tabId', MAX_ID) } : {}),
  };
}

export function parseHistoryQuery(value: unknown): HistoryQuery {
  if (value === undefined || value === null) return {};
  if (!isObj(value)) throw new HistoryInputError('A history query must be an object');
  const query: HistoryQuery = {};
  if (value.text !== undefined) query.text = str(value, 'text', MAX_SHORT);
  if (value.connectionId !== undefined) query.connectionId = str(value, 'connectionId', MAX_ID);
  if (value.outcome !== undefined) {
    if (value.outcome !== 'ok' && value.outcome !== 'error') throw new HistoryInputError('outcome must be "ok" or "error"');
    query.outcome = value.outcome;
  }
  if (value.limit !== undefined) query.limit = Math.min(num(value, 'limit', { integer: true }), MAX_PAGE);
  if (value.offset !== undefined) query.offset = num(value, 'offset', { integer: true });
  return query;
}

export function parseRunId(value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_ID) throw new HistoryInputError('A run id must be a non-empty string');
  return value;
}
