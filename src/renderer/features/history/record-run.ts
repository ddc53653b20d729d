/**
 * What the app records after each run (state/run-log.ts reports them): `historyRunFrom` turns a
 * run's outcome into a history record for `HistoryStore.add`; the app then invalidates
 * `historyKeys.all` so an open panel updates.
 */
import type { RunOutcome } from '../../state/run-log.ts';
import type { NewHistoryRun } from './history-types.ts';
import { summarizeFailure, summarizeView } from './summarize-run.ts';

export type { RunOutcome } from '../../state/run-log.ts';

export function historyRunFrom(connection: { id: string; name: string }, document: string, outcome: RunOutcome, at: number, tabId?: string): NewHistoryRun {
  const base = { connectionId: connection.id, connectionName: connection.name, document, at, ...(tabId !== undefined ? { tabId } : {}) };
  if (outcome.kind === 'failed') return { ...base, status: 0, timeMs: Math.round(outcome.timeMs ?? 0), size: 0, summary: summarizeFailure(outcome.message) };
  return { ...base, status: outcome.status, timeMs: Math.round(outcome.timeMs), size: outcome.size, summary: summarizeView(outcome.view) };
}

/** TanStack Query keys of the history panel (`[area, name, params]`). */
export const historyKeys = {
  all: ['history'] as const,
  list: (params: { text: string; connectionId: string | null; outcome: 'ok' | 'error' | null }) => ['history', 'list', params] as const,
};
