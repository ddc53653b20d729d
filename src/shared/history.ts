/**
 * The run history's records, shared by the SQLite store in Electron main, the IndexedDB store of
 * browser mode and the bridge between them: one record per run, the query a list takes, and the
 * rules every store applies for search, outcome and retention.
 */

export interface HistoryRun {
  id: string;
  connectionId: string;
  /** The connection's name when it ran, so a deleted connection's runs still read well. */
  connectionName: string;
  /** The query text as sent. */
  document: string;
  /** HTTP status; 0 when the server could not be reached. */
  status: number;
  timeMs: number;
  /** Response bytes. */
  size: number;
  /** One line about the envelope. */
  summary: string;
  /** When it ran, ms since the epoch. */
  at: number;
  /** The editor tab it ran in, so a re-run goes back there; absent for other runs (a diff) and older records. */
  tabId?: string;
}

export type NewHistoryRun = Omit<HistoryRun, 'id'>;

export interface HistoryQuery {
  /** Words that must all appear (case-insensitive) in the document, summary or connection name. */
  text?: string;
  connectionId?: string;
  outcome?: 'ok' | 'error';
  limit?: number;
  offset?: number;
}

export const DEFAULT_RETENTION = 1000;
export const DEFAULT_PAGE = 200;
export const MAX_PAGE = 1000;

export function searchWords(text: string | undefined): string[] {
  return (text ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
}

export function isOk(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The one definition of a match, used by the IndexedDB and memory stores and by tests of the SQLite one. */
export function matchesQuery(run: HistoryRun, query: HistoryQuery, words = searchWords(query.text)): boolean {
  if (query.connectionId !== undefined && run.connectionId !== query.connectionId) return false;
  if (query.outcome === 'ok' && !isOk(run.status)) return false;
  if (query.outcome === 'error' && isOk(run.status)) return false;
  if (words.length === 0) return true;
  const haystack = `${run.document}\n${run.summary}\n${run.connectionName}`.toLowerCase();
  return words.every((w) => haystack.includes(w));
}

export function checkRetention(retention: number): number {
  if (!Number.isSafeInteger(retention) || retention < 1) throw new Error('The history retention must be a positive integer.');
  return retention;
}
