/**
 * The run history records as main stores them. They mirror the renderer's history types
 * (src/renderer/features/history/history-types.ts) field for field: main cannot import renderer
 * code, so both belong in src/shared once the history bridge channels exist.
 */

export interface HistoryRun {
  id: string;
  connectionId: string;
  connectionName: string;
  document: string;
  /** HTTP status; 0 when the server could not be reached. */
  status: number;
  timeMs: number;
  size: number;
  summary: string;
  /** ms since the epoch. */
  at: number;
}

export type NewHistoryRun = Omit<HistoryRun, 'id'>;

export interface HistoryQuery {
  text?: string;
  connectionId?: string;
  outcome?: 'ok' | 'error';
  limit?: number;
  offset?: number;
}

export const DEFAULT_RETENTION = 1000;
export const DEFAULT_PAGE = 200;
export const MAX_PAGE = 1000;
