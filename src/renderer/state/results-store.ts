/**
 * The last response of each tab, in memory only (responses can be huge, and may hold data the user
 * would not want written to disk by a UI cache). Cleared with the page.
 */
import type { ResultView } from '../response/result-view.ts';
import type { HttpRequestSpec } from '../transport/transport.ts';
import { ExternalStore } from './external-store.ts';

export interface RunDone {
  status: 'done';
  runId: number;
  request: HttpRequestSpec;
  /** The query text as it was sent: markers are placed against it. */
  queryText: string;
  view: ResultView;
  /** The raw body, for the raw view and for saving to a file. */
  raw: Blob;
  size: number;
  timeMs: number;
  statusText: string;
  at: number;
}

export type RunState =
  | { status: 'running'; runId: number; request: HttpRequestSpec; startedAt: number }
  | RunDone
  | { status: 'failed'; runId: number; request: HttpRequestSpec | null; message: string; at: number }
  /** Not sent: a write on a read-only connection (state/safety/write-guard.ts). */
  | { status: 'refused'; runId: number; sentence: string; confirmName: string | null; at: number }
  /** The user cancelled it while it ran; the document is untouched. */
  | { status: 'cancelled'; runId: number; request: HttpRequestSpec; afterMs: number; at: number };

export type ResultsState = Readonly<Record<string, RunState>>;

export class ResultsStore extends ExternalStore<ResultsState> {
  constructor() {
    super({});
  }

  get(tabId: string): RunState | undefined {
    return this.getSnapshot()[tabId];
  }

  /** A later run of the same tab wins: an earlier, slower answer is dropped. */
  set(tabId: string, state: RunState): void {
    const current = this.getSnapshot()[tabId];
    if (current && current.runId > state.runId) return;
    this.setState({ ...this.getSnapshot(), [tabId]: state });
  }

  clear(tabId: string): void {
    if (!(tabId in this.getSnapshot())) return;
    const next = { ...this.getSnapshot() };
    delete next[tabId];
    this.setState(next);
  }
}
