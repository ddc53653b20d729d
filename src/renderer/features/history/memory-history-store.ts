/**
 * A history kept in memory: for a browser without IndexedDB (private modes that refuse it) and for
 * tests of code that records runs. Same rules as the persistent stores (history-types.ts).
 */
import { checkRetention, DEFAULT_PAGE, DEFAULT_RETENTION, matchesQuery, searchWords, type HistoryQuery, type HistoryRun, type HistoryStore, type NewHistoryRun } from './history-types.ts';

export class MemoryHistoryStore implements HistoryStore {
  readonly retention: number;
  /** Newest first. */
  private runs: HistoryRun[] = [];
  private next = 1;

  constructor(retention = DEFAULT_RETENTION) {
    this.retention = checkRetention(retention);
  }

  async add(input: NewHistoryRun): Promise<HistoryRun> {
    const run: HistoryRun = { id: `m${this.next++}`, ...input };
    // Stable: a run goes before every run with the same or an older time.
    const at = this.runs.findIndex((r) => r.at <= run.at);
    this.runs.splice(at === -1 ? this.runs.length : at, 0, run);
    this.runs.length = Math.min(this.runs.length, this.retention);
    return run;
  }

  async list(query: HistoryQuery = {}): Promise<HistoryRun[]> {
    const words = searchWords(query.text);
    const offset = query.offset ?? 0;
    return this.runs.filter((r) => matchesQuery(r, query, words)).slice(offset, offset + (query.limit ?? DEFAULT_PAGE));
  }

  async get(id: string): Promise<HistoryRun | null> {
    return this.runs.find((r) => r.id === id) ?? null;
  }

  async delete(id: string): Promise<void> {
    this.runs = this.runs.filter((r) => r.id !== id);
  }

  async clear(): Promise<void> {
    this.runs = [];
  }

  async count(): Promise<number> {
    return this.runs.length;
  }
}
