/**
 * Runs a tab's query: builds the request for its connection, sends it through the transport,
 * parses the answer (off the main thread when large) and records the result and its summary, and
 * reports the run to the run log (the history records it).
 */
import { parseResponseBody, type ParseOptions } from '../response/parse-response.ts';
import { buildRunRequest } from '../transport/jql-client.ts';
import type { Transport } from '../transport/transport.ts';
import type { ConnectionsStore } from './connections-store.ts';
import type { ResultsStore } from './results-store.ts';
import type { RunLog } from './run-log.ts';
import type { TabsStore } from './tabs-store.ts';

export interface RunDeps {
  transport: Transport;
  connections: ConnectionsStore;
  tabs: TabsStore;
  results: ResultsStore;
  parse?: ParseOptions;
  runLog?: RunLog;
  now?: () => number;
}

let lastRunId = 0;

/** `render: only:data` changes how a 2xx body reads (PROTOCOL.md 3.4). */
export function asksOnlyData(text: string): boolean {
  return /"render"\s*:\s*"only:data"/.test(text);
}

export async function runTab(deps: RunDeps, tabId: string): Promise<void> {
  const now = deps.now ?? Date.now;
  const tab = deps.tabs.get(tabId);
  if (!tab) return;
  const runId = ++lastRunId;
  const target = deps.connections.target(tab.connectionId);
  if (!target) {
    deps.results.set(tabId, { status: 'failed', runId, request: null, message: 'This tab has no connection: pick one above the editor.', at: now() });
    return;
  }
  const request = buildRunRequest(target, tab.text, { queryInfoLevel: tab.queryInfoLevel });
  const started = now();
  deps.results.set(tabId, { status: 'running', runId, request, startedAt: started });
  const connection = { id: target.connectionId, name: deps.connections.get(target.connectionId)?.name ?? target.connectionId };
  try {
    const response = await deps.transport.send(request);
    const view = await parseResponseBody(response.body, response.status, { renderOnlyData: asksOnlyData(tab.text) }, deps.parse);
    const size = response.body.byteLength;
    deps.results.set(tabId, {
      status: 'done',
      runId,
      request,
      queryText: tab.text,
      view,
      raw: new Blob([response.body], { type: response.headers['content-type'] ?? 'application/json' }),
      size,
      timeMs: response.timeMs,
      statusText: response.statusText,
      at: now(),
    });
    deps.tabs.recordRun(tabId, { status: response.status, timeMs: Math.round(response.timeMs), size, at: now() });
    deps.runLog?.record({ connection, document: tab.text, outcome: { kind: 'answered', status: response.status, timeMs: response.timeMs, size, view }, at: started });
    // A token the server no longer accepts: show the connection as signed out.
    if (response.status === 401 && target.token) await deps.connections.markSignedOut(target.connectionId);
  } catch (err) {
    deps.results.set(tabId, { status: 'failed', runId, request, message: (err as Error).message, at: now() });
    deps.runLog?.record({ connection, document: tab.text, outcome: { kind: 'failed', message: (err as Error).message, timeMs: now() - started }, at: started });
  }
}
