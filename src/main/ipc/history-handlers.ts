/**
 * `history:*`: the run history in SQLite (src/main/history). The arguments were checked by
 * validators.ts (history/validate.ts) before a handler runs.
 */
import type { SqliteHistoryStore } from '../history/sqlite-history-store.ts';
import type { Handlers } from './register.ts';

type HistoryChannels = 'history:add' | 'history:list' | 'history:get' | 'history:delete' | 'history:clear' | 'history:count';

export function historyHandlers(store: Pick<SqliteHistoryStore, 'add' | 'list' | 'get' | 'delete' | 'clear' | 'count'>): Pick<Handlers, HistoryChannels> {
  return {
    'history:add': (run) => store.add(run),
    'history:list': (query) => store.list(query),
    'history:get': (id) => store.get(id),
    'history:delete': (id) => store.delete(id),
    'history:clear': () => store.clear(),
    'history:count': () => store.count(),
  };
}
