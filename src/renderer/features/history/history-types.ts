/**
 * The run history as the console sees it: one record per run, the store interface both back ends
 * implement (IndexedDB in browser mode, SQLite in Electron main through the bridge), and the rules
 * they share for search and retention. src/main/history/types.ts mirrors these types: main cannot
 * import renderer code, so they belong in src/shared once the bridge channels are added.
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
  /** One line about the envelope (summarize-run.ts). */
  summary: string;
  /** When it ran, ms since the epoch. */
  at: number;
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

export interface HistoryStore {
  add(run: NewHistoryRun): Promise<HistoryRun>;
  /** Newest first; with `text`, a search. */
  list(query?: HistoryQuery): Promise<HistoryRun[]>;
  get(id: string): Promise<HistoryRun | null>;
  delete(id: string): Promise<void>;
  clear(): Promise<void>;
  count(): Promise<number>;
  /** The most runs kept; the oldest beyond it are dropped on add. */
  readonly retention: number;
}

export const DEFAULT_RETENTION = 1000;
export const DEFAULT_PAGE = 200;

export function searchWords(text: string | undefined): string[] {
  return (text ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
}

export function isOk(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The one definition of a match, used by the IndexedDB store and by tests of the SQLite one. */
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
