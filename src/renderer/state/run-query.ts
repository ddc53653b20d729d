/**
 * Runs a tab's query: fills its `{{variables}}` from the connection's environment (an undefined one
 * stops the run with the Saved view's sentence), refuses a write on a read-only connection unless
 * the user chose "Run once anyway", builds the request for its connection, sends it through the
 * transport (Cancel aborts it), parses the answer (off the main thread when large), records the
 * result and its summary, and reports the run to the run log (the history records it).
 */
import type { DescribeResult } from '../../shared/protocol.ts';
import type { NormalizeHints } from '../response/normalize-envelope.ts';
import { appParseWorker, parseRunBody, type ParseOptions } from '../response/parse-response.ts';
import { fetchRunInWorker, type RunAnswer } from '../response/run-in-worker.ts';
import { buildRunRequest, hasCredential } from '../transport/jql-client.ts';
import { CancelledError, type HttpRequestSpec, type Transport } from '../transport/transport.ts';
import type { ConnectionsStore } from './connections-store.ts';
import type { ResultsStore } from './results-store.ts';
import type { RunLog } from './run-log.ts';
import { classifyDocument } from './safety/classify-document.ts';
import { refuseWrite } from './safety/write-guard.ts';
import type { TabsStore } from './tabs-store.ts';
import { substituteVariables, type VariableSource } from './variables.ts';

export interface RunDeps {
  transport: Transport;
  connections: ConnectionsStore;
  tabs: TabsStore;
  results: ResultsStore;
  parse?: ParseOptions;
  runLog?: RunLog;
  now?: () => number;
  variables?: VariableSource;
  /** The connection's describe when it is known (controller intents it declares read-only). */
  describeOf?: (connectionId: string) => DescribeResult | null;
  /** The running request of each tab, for Cancel. */
  inflight?: Map<string, AbortController>;
}

export interface RunTabOptions {
  /** "Run once anyway": the user confirmed a write on a read-only connection. */
  allowWrite?: boolean;
}

let lastRunId = 0;

/** `render: only:data` changes how a 2xx body reads (docs/protocol.md "`__meta__` keys"). */
export function asksOnlyData(text: string): boolean {
  return /"render"\s*:\s*"only:data"/.test(text);
}

/** Stops the tab's running request; the tab then says Cancelled and keeps its document. */
export function cancelTab(deps: Pick<RunDeps, 'inflight'>, tabId: string): boolean {
  const controller = deps.inflight?.get(tabId);
  if (!controller) return false;
  controller.abort();
  return true;
}

/**
 * Sends the request and reads its answer. In browser mode the parse worker does both, so the body's
 * bytes never reach the window's thread (issue 31); elsewhere (the desktop app's bridge, no worker)
 * the transport reads it and the body is handed to the parse, which gives it back as the raw Blob.
 */
async function readRun(deps: RunDeps, request: HttpRequestSpec, hints: NormalizeHints, signal: AbortSignal): Promise<RunAnswer> {
  const worker = deps.transport.forWorker ? (deps.parse?.getWorker ?? appParseWorker)() : null;
  if (worker && deps.transport.forWorker) return fetchRunInWorker(worker, deps.transport.forWorker(request), hints, signal);
  const { body, ...head } = await deps.transport.send(request, { signal });
  // Measured first: the body is handed to the parse.
  const size = body.byteLength;
  const parsed = await parseRunBody(body, head.status, hints, head.headers['content-type'] ?? 'application/json', deps.parse);
  return { ...head, size, ...parsed };
}

export async function runTab(deps: RunDeps, tabId: string, options: RunTabOptions = {}): Promise<void> {
  const now = deps.now ?? Date.now;
  const tab = deps.tabs.get(tabId);
  if (!tab) return;
  const runId = ++lastRunId;
  const target = deps.connections.target(tab.connectionId);
  const connection = deps.connections.get(tab.connectionId);
  if (!target || !connection) {
    deps.results.set(tabId, { status: 'failed', runId, request: null, message: 'This tab has no connection: pick one above the editor.', at: now() });
    return;
  }
  const filled = substituteVariables(tab.text, deps.variables?.variables(tab.connectionId) ?? {});
  if (!filled.ok) {
    deps.results.set(tabId, { status: 'failed', runId, request: null, message: filled.errors.map((e) => e.message).join('\n'), at: now() });
    return;
  }
  const refusal = options.allowWrite ? null : refuseWrite(classifyDocument(filled.text, deps.describeOf?.(tab.connectionId) ?? null), connection);
  if (refusal) {
    deps.results.set(tabId, { status: 'refused', runId, sentence: refusal.sentence, confirmName: refusal.confirmName, at: now() });
    return;
  }
  const request = buildRunRequest(target, filled.text, { queryInfoLevel: tab.queryInfoLevel });
  const started = now();
  const controller = new AbortController();
  deps.inflight?.get(tabId)?.abort();
  deps.inflight?.set(tabId, controller);
  deps.results.set(tabId, { status: 'running', runId, request, startedAt: started });
  const who = { id: target.connectionId, name: connection.name };
  try {
    const response = await readRun(deps, request, { renderOnlyData: asksOnlyData(filled.text) }, controller.signal);
    const { view, raw, size } = response;
    if (controller.signal.aborted) throw new CancelledError();
    deps.results.set(tabId, {
      status: 'done',
      runId,
      request,
      queryText: tab.text,
      view,
      raw,
      size,
      timeMs: response.timeMs,
      statusText: response.statusText,
      at: now(),
    });
    deps.tabs.recordRun(tabId, { status: response.status, timeMs: Math.round(response.timeMs), size, at: now() });
    // The history keeps the document as written: variables stay placeholders, their values are not copied.
    deps.runLog?.record({ tabId, connection: who, document: tab.text, outcome: { kind: 'answered', status: response.status, timeMs: response.timeMs, size, view }, at: started });
    // A token the server no longer accepts: show the connection as signed out.
    if (response.status === 401 && hasCredential(target)) await deps.connections.markSignedOut(target.connectionId);
  } catch (err) {
    if (err instanceof CancelledError) {
      deps.results.set(tabId, { status: 'cancelled', runId, request, afterMs: now() - started, at: now() });
      deps.runLog?.record({ tabId, connection: who, document: tab.text, outcome: { kind: 'failed', message: 'cancelled by the user', timeMs: now() - started }, at: started });
      return;
    }
    deps.results.set(tabId, { status: 'failed', runId, request, message: (err as Error).message, at: now() });
    deps.runLog?.record({ tabId, connection: who, document: tab.text, outcome: { kind: 'failed', message: (err as Error).message, timeMs: now() - started }, at: started });
  } finally {
    if (deps.inflight?.get(tabId) === controller) deps.inflight.delete(tabId);
  }
}
