/**
 * The history channels' handlers, one per operation, each validating its input before touching the
 * store. The lead registers them under the bridge's channel names with the usual sender check.
 */
import type { SqliteHistoryStore } from './sqlite-history-store.ts';
import type { HistoryQuery, HistoryRun } from './types.ts';
import { parseHistoryQuery, parseNewRun, parseRunId } from './validate.ts';

export interface HistoryHandlers {
  add(run: unknown): HistoryRun;
  list(query: unknown): HistoryRun[];
  get(id: unknown): HistoryRun | null;
  delete(id: unknown): void;
  clear(): void;
  count(): number;
}

export function historyHandlers(store: Pick<SqliteHistoryStore, 'add' | 'list' | 'get' | 'delete' | 'clear' | 'count'>): HistoryHandlers {
  return {
    add: (run) => store.add(parseNewRun(run)),
    list: (query) => store.list(parseHistoryQuery(query) satisfies HistoryQuery),
    get: (id) => store.get(parseRunId(id)),
    delete: (id) => store.delete(parseRunId(id)),
    clear: () => store.clear(),
    count: () => store.count(),
  };
}
