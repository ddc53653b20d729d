import { describe, expect, it } from 'vitest';
import type { HttpRequestSpec, HttpResult, Transport } from '../transport/transport.ts';
import { CancelledError, NetworkError } from '../transport/transport.ts';
import { normalizeText } from '../response/normalize-envelope.ts';
import { ConnectionsStore, EMBEDDED_ID } from './connections-store.ts';
import { memoryStorage } from './external-store.ts';
import { ResultsStore } from './results-store.ts';
import { RunLog, type RunRecord } from './run-log.ts';
import { asksOnlyData, cancelTab, runTab } from './run-query.ts';
import { createMemorySecretStore } from './secret-store.ts';
import { TabsStore } from './tabs-store.ts';
import { parseVariableValue } from './variables.ts';

function setup(answer: (req: HttpRequestSpec) => Promise<{ status: number; body: unknown }>) {
  const sent: HttpRequestSpec[] = [];
  const transport: Transport = {
    kind: 'browser',
    async send(req, options): Promise<HttpResult> {
      sent.push(req);
      const answered = answer(req);
      // Like the real transports: an abort rejects at once with CancelledError.
      const cancelled = new Promise<never>((_, reject) => options?.signal?.addEventListener('abort', () => reject(new CancelledError())));
      const { status, body } = await Promise.race([answered, cancelled]);
      const bytes = new TextEncoder().encode(JSON.stringify(body));
      return { status, statusText: 'X', headers: { 'content-type': 'application/json' }, body: bytes.buffer as ArrayBuffer, timeMs: 12.3 };
    },
  };
  const connections = new ConnectionsStore(memoryStorage(), createMemorySecretStore());
  connections.setEmbedded('http://127.0.0.1:9', { localAdmin: true, token: 'tok' });
  const tabs = new TabsStore(null, EMBEDDED_ID);
  const results = new ResultsStore();
  const runLog = new RunLog();
  const recorded: RunRecord[] = [];
  runLog.subscribe((r) => recorded.push(r));
  const env: Record<string, Record<string, unknown>> = {};
  const variables = { variables: (id: string) => (env[id] ?? {}) as never, subscribe: () => () => {} };
  return { deps: { transport, connections, tabs, results, runLog, variables, inflight: new Map<string, AbortController>(), now: () => 1000 }, sent, tabs, results, connections, recorded, env };
}

describe('runTab', () => {
  it('sends the tab text to its connection and records the result and summary', async () => {
    const { deps, sent, tabs, results } = setup(async () => ({ status: 200, body: { __payload__: [{ id: 1 }], __intent__: 'retrieve', __errors__: null } }));
    const id = tabs.active.id;
    tabs.setQueryInfoLevel(id, 2);
    await runTab(deps, id);
    expect(sent[0]).toMatchObject({ url: 'http://127.0.0.1:9/jql?query_info_level=2', body: tabs.active.text, headers: { Authorization: 'Bearer tok' } });
    const result = results.get(id);
    expect(result?.status).toBe('done');
    if (result?.status !== 'done') return;
    expect(result.view.sections[0]?.payload).toEqual([{ id: 1 }]);
    expect(result.size).toBeGreaterThan(10);
    expect(tabs.active.lastRun).toMatchObject({ status: 200, timeMs: 12 });
  });

  it('records a network failure as a message', async () => {
    const { deps, tabs, results, recorded } = setup(async () => {
      throw new NetworkError('Could not reach it');
    });
    await runTab(deps, tabs.active.id);
    expect(results.get(tabs.active.id)).toMatchObject({ status: 'failed', message: 'Could not reach it' });
    expect(recorded).toEqual([{ tabId: tabs.active.id, connection: { id: EMBEDDED_ID, name: 'Embedded server' }, document: tabs.active.text, outcome: { kind: 'failed', message: 'Could not reach it', timeMs: 0 }, at: 1000 }]);
  });

  it('reports every answered run to the run log, for the history', async () => {
    const { deps, tabs, recorded } = setup(async () => ({ status: 422, body: { __payload__: null, __errors__: [{ code: 'validation_error', message: 'title is required' }] } }));
    await runTab(deps, tabs.active.id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ connection: { id: EMBEDDED_ID, name: 'Embedded server' }, document: tabs.active.text, at: 1000, outcome: { kind: 'answered', status: 422, timeMs: 12.3 } });
    const outcome = recorded[0]!.outcome;
    expect(outcome.kind === 'answered' && outcome.view.failed).toBe(true);
  });

  it('a run log listener that throws does not fail the run', async () => {
    const { deps, tabs, results } = setup(async () => ({ status: 200, body: { __payload__: [], __errors__: null } }));
    deps.runLog.subscribe(() => {
      throw new Error('disk full');
    });
    await runTab(deps, tabs.active.id);
    expect(results.get(tabs.active.id)?.status).toBe('done');
  });

  it('keeps the latest of two overlapping runs', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let call = 0;
    const { deps, tabs, results } = setup(async () => {
      call++;
      if (call === 1) await gate;
      return { status: 200, body: { __payload__: call === 1 ? 'old' : 'new', __intent__: 'x', __errors__: null } };
    });
    const first = runTab(deps, tabs.active.id);
    await runTab(deps, tabs.active.id);
    release();
    await first;
    const r = results.get(tabs.active.id);
    expect(r?.status === 'done' && r.view.sections[0]?.payload).toBe('new');
  });

  it('marks a connection signed out when its token is refused', async () => {
    const { deps, tabs, connections } = setup(async () => ({ status: 401, body: { __payload__: null, __errors__: [{ code: 'unauthenticated', message: 'expired' }] } }));
    await runTab(deps, tabs.active.id);
    expect(connections.get(EMBEDDED_ID)?.signedIn).toBe(false);
  });

  it('fills {{variables}} from the connection environment, and stops on an undefined one with the Saved view sentence', async () => {
    const { deps, sent, tabs, results, env } = setup(async () => ({ status: 200, body: { __payload__: [], __errors__: null } }));
    const id = tabs.active.id;
    tabs.setText(id, '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "filter": {"priority": {{prio}}, "status": "{{status}}"}}}');
    await runTab(deps, id);
    expect(sent).toEqual([]);
    expect(results.get(id)).toMatchObject({
      status: 'failed',
      message: '{{prio}} is not defined for this connection (line 1, column 91)\n{{status}} is not defined for this connection (line 1, column 112)',
    });
    env[EMBEDDED_ID] = { prio: 4, status: 'open' };
    await runTab(deps, id);
    expect(JSON.parse(sent[0]!.body!)).toMatchObject({ __meta__: { filter: { priority: 4, status: 'open' } } });
  });

  it('sends a 64-bit id as typed, and one from the environment as its digits, never another id (issue 31 item 4)', async () => {
    const { deps, sent, tabs, env } = setup(async () => ({ status: 200, body: { __payload__: [], __errors__: null } }));
    const id = tabs.active.id;
    tabs.setText(id, '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "filter": {"id": 9007199254740993, "ref": {{ref}}}}}');
    env[EMBEDDED_ID] = { ref: parseVariableValue('12345678901234567890') };
    await runTab(deps, id);
    expect(sent[0]?.body).toBe('{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "filter": {"id": 9007199254740993, "ref": 12345678901234567890}}}');
  });

  it('refuses a write on a read-only connection without sending it, and sends it when run once anyway', async () => {
    const { deps, sent, tabs, results, connections, recorded } = setup(async () => ({ status: 200, body: { __payload__: { id: 5 }, __errors__: null } }));
    const prod = connections.add({ name: 'Prod', baseUrl: 'http://prod', authClass: 'jwt' });
    const id = tabs.active.id;
    tabs.setConnection(id, prod);
    tabs.setText(id, '{"__meta__": {"namespace": "tickets.Ticket", "intent": "delete", "uniqueObject": {"id": 5}}}');
    await runTab(deps, id);
    expect(sent).toEqual([]);
    expect(recorded).toEqual([]);
    expect(results.get(id)).toMatchObject({ status: 'refused', sentence: 'Not sent: this document deletes tickets.Ticket records, and “Prod” (production) is in read-only mode.', confirmName: 'Prod' });
    await runTab(deps, id, { allowWrite: true });
    expect(sent).toHaveLength(1);
    expect(results.get(id)?.status).toBe('done');
    // A read goes through on the same connection.
    tabs.setText(id, '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve"}}');
    await runTab(deps, id);
    expect(sent).toHaveLength(2);
  });

  it('cancels a running query: the tab says cancelled, keeps its document, and a late answer is dropped', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const { deps, tabs, results, recorded } = setup(async () => {
      await gate;
      return { status: 200, body: { __payload__: 'late', __errors__: null } };
    });
    const id = tabs.active.id;
    const text = tabs.active.text;
    const running = runTab(deps, id);
    expect(results.get(id)?.status).toBe('running');
    expect(cancelTab(deps, id)).toBe(true);
    await running;
    release();
    expect(results.get(id)).toMatchObject({ status: 'cancelled' });
    expect(tabs.active.text).toBe(text);
    expect(recorded[0]?.outcome).toMatchObject({ kind: 'failed', message: 'cancelled by the user' });
    expect(cancelTab(deps, id)).toBe(false);
  });

  it('in browser mode lets the parse worker send the request and read the answer: the window never reads the body (issue 31)', async () => {
    const { deps, sent, tabs, results } = setup(async () => ({ status: 200, body: {} }));
    const body = '{"__payload__":[{"id":1}],"__intent__":"retrieve","__errors__":null}';
    const asked: unknown[] = [];
    // A worker stand-in that answers a fetch request as the real one does: the head, the raw Blob, the view.
    const listeners: Array<(e: MessageEvent) => void> = [];
    const worker = {
      postMessage(message: { id: number; fetch?: HttpRequestSpec }) {
        asked.push(message);
        const reply = (data: unknown) => queueMicrotask(() => listeners.forEach((l) => l({ data } as MessageEvent)));
        reply({ id: message.id, head: { status: 200, statusText: 'OK', headers: {}, timeMs: 5, size: body.length } });
        reply({ id: message.id, raw: new Blob([body]) });
        reply({ id: message.id, view: normalizeText(body, 200, {}) });
      },
      addEventListener: (type: string, l: never) => void (type === 'message' && listeners.push(l)),
    };
    const transport = { ...deps.transport, forWorker: (r: HttpRequestSpec) => ({ ...r, answerLimitBytes: 1024 }) };
    await runTab({ ...deps, transport, parse: { getWorker: () => worker } }, tabs.active.id);
    expect(sent).toHaveLength(0);
    expect(asked[0]).toMatchObject({ fetch: { url: 'http://127.0.0.1:9/jql', headers: { Authorization: 'Bearer tok' }, answerLimitBytes: 1024 } });
    const result = results.get(tabs.active.id);
    expect(result).toMatchObject({ status: 'done', size: body.length, timeMs: 5 });
    if (result?.status === 'done') expect(await result.raw.text()).toBe(body);
  });

  it('reads render only:data from the query', () => {
    expect(asksOnlyData('{"__meta__": {"render": "only:data"}}')).toBe(true);
    expect(asksOnlyData('{"__meta__": {}}')).toBe(false);
  });
});
