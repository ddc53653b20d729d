/**
 * The run history of the Electron app: the SQLite store lives in main (src/main/history), and the
 * renderer reaches it through the bridge's `history:*` channels.
 */
import type { JqlBridge } from '../../../shared/bridge.ts';
import { DEFAULT_RETENTION, type HistoryQuery, type HistoryRun, type HistoryStore, type NewHistoryRun } from './history-types.ts';

export type HistoryBridge = Pick<JqlBridge, 'historyAdd' | 'historyList' | 'historyGet' | 'historyDelete' | 'historyClear' | 'historyCount'>;

export class BridgeHistoryStore implements HistoryStore {
  readonly retention: number;
  private readonly bridge: HistoryBridge;

  /** `retention` is main's setting, passed along for display only. */
  constructor(bridge: HistoryBridge, retention = DEFAULT_RETENTION) {
    this.bridge = bridge;
    this.retention = retention;
  }

  add(run: NewHistoryRun): Promise<HistoryRun> {
    return this.bridge.historyAdd(run);
  }
  list(query: HistoryQuery = {}): Promise<HistoryRun[]> {
    return this.bridge.historyList(query);
  }
  get(id: string): Promise<HistoryRun | null> {
    return this.bridge.historyGet(id);
  }
  delete(id: string): Promise<void> {
    return this.bridge.historyDelete(id);
  }
  clear(): Promise<void> {
    return this.bridge.historyClear();
  }
  count(): Promise<number> {
    return this.bridge.historyCount();
  }
}
