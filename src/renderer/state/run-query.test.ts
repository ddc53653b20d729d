import { describe, expect, it } from 'vitest';
import type { HttpRequestSpec, HttpResult, Transport } from '../transport/transport.ts';
import { NetworkError } from '../transport/transport.ts';
import { ConnectionsStore, EMBEDDED_ID } from './connections-store.ts';
import { memoryStorage } from './external-store.ts';
import { ResultsStore } from './results-store.ts';
import { RunLog, type RunRecord } from './run-log.ts';
import { asksOnlyData, runTab } from './run-query.ts';
import { createMemorySecretStore } from './secret-store.ts';
import { TabsStore } from './tabs-store.ts';

function setup(answer: (req: HttpRequestSpec) => Promise<{ status: number; body: unknown }>) {
  const sent: HttpRequestSpec[] = [];
  const transport: Transport = {
    kind: 'browser',
    async send(req): Promise<HttpResult> {
      sent.push(req);
      const { status, body } = await answer(req);
      const bytes = new TextEncoder().encode(JSON.stringify(body));
      return { status, statusText: 'X', headers: { 'content-type': 'application/json' }, body: bytes.buffer as ArrayBuffer, timeMs: 12.3 };
    },
  };
  const connections = new ConnectionsStore(memoryStorage(), createMemorySecretStore());
  connections.setEmbedded('http://127.0.0.1:9', 'tok');
  const tabs = new TabsStore(memoryStorage(), EMBEDDED_ID);
  const results = new ResultsStore();
  const runLog = new RunLog();
  const recorded: RunRecord[] = [];
  runLog.subscribe((r) => recorded.push(r));
  return { deps: { transport, connections, tabs, results, runLog, now: () => 1000 }, sent, tabs, results, connections, recorded };
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
    expect(recorded).toEqual([{ connection: { id: EMBEDDED_ID, name: 'Embedded server' }, document: tabs.active.text, outcome: { kind: 'failed', message: 'Could not reach it', timeMs: 0 }, at: 1000 }]);
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

  it('reads render only:data from the query', () => {
    expect(asksOnlyData('{"__meta__": {"render": "only:data"}}')).toBe(true);
    expect(asksOnlyData('{"__meta__": {}}')).toBe(false);
  });
});
