/**
 * Every run the console makes, as it happens: run-query.ts (editor tabs) and the diff report each
 * one here, and the app records them in the history. A plain listener list, so state/ stays free
 * of the history feature that stores them.
 */
import type { ResultView } from '../response/result-view.ts';

export type RunOutcome =
  | { kind: 'answered'; status: number; timeMs: number; size: number; view: ResultView }
  | { kind: 'failed'; message: string; timeMs?: number };

export interface RunRecord {
  connection: { id: string; name: string };
  /** The query text as sent. */
  document: string;
  outcome: RunOutcome;
  at: number;
  /** The editor tab it ran in, when it ran in one. */
  tabId?: string;
}

export class RunLog {
  private listeners = new Set<(run: RunRecord) => void>();

  subscribe(listener: (run: RunRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  record(run: RunRecord): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(run);
      } catch {
        // A listener that fails (a full disk under the history) must not fail the run.
      }
    }
  }
}
