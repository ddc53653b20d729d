/** The run history: one panel, the store interface with its browser and Electron back ends, and the recording helper. */
export { HistoryPanel, type HistoryPanelProps } from './HistoryPanel.tsx';
export { DEFAULT_RETENTION, type HistoryQuery, type HistoryRun, type HistoryStore, type NewHistoryRun } from './history-types.ts';
export { IdbHistoryStore, type IdbHistoryOptions } from './idb-history-store.ts';
export { BridgeHistoryStore, type HistoryBridge } from './bridge-history-store.ts';
export { MemoryHistoryStore } from './memory-history-store.ts';
export { historyKeys, historyRunFrom, type RunOutcome } from './record-run.ts';
export { summarizeFailure, summarizeView } from './summarize-run.ts';
