/**
 * The run history as the console sees it: the records and rules shared with main
 * (src/shared/history.ts), and the async store interface both back ends implement (IndexedDB in
 * browser mode, SQLite in Electron main through the bridge).
 */
import type { HistoryQuery, HistoryRun, NewHistoryRun } from '../../../shared/history.ts';

export { checkRetention, DEFAULT_PAGE, DEFAULT_RETENTION, isOk, matchesQuery, searchWords, type HistoryQuery, type HistoryRun, type NewHistoryRun } from '../../../shared/history.ts';

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
