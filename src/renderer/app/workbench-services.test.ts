import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { historyKeys, MemoryHistoryStore } from '../features/history/index.ts';
import { normalizeParsed } from '../response/normalize-envelope.ts';
import { RunLog } from '../state/run-log.ts';
import { recordRuns } from './workbench-services.ts';

describe('recordRuns', () => {
  it('records each reported run in the history with its summary, then refreshes the history panel', async () => {
    const runLog = new RunLog();
    const history = new MemoryHistoryStore();
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    recordRuns(runLog, history, queryClient, vi.fn());
    const view = normalizeParsed({ __payload__: [{ id: 1 }, { id: 2 }], __extras__: { filtered: 9 }, __intent__: 'retrieve', __errors__: null }, 200);
    runLog.record({ connection: { id: 'embedded', name: 'Embedded server' }, document: '{"q":1}', outcome: { kind: 'answered', status: 200, timeMs: 12.4, size: 80, view }, at: 1000 });
    runLog.record({ connection: { id: 'c2', name: 'Prod' }, document: '{"q":2}', outcome: { kind: 'failed', message: 'Could not reach it', timeMs: 3 }, at: 2000 });
    await vi.waitFor(() => expect(invalidate).toHaveBeenCalledTimes(2));
    expect(invalidate).toHaveBeenCalledWith({ queryKey: historyKeys.all });
    const runs = await history.list();
    expect(runs.map((r) => [r.connectionName, r.status, r.timeMs, r.summary])).toEqual([
      ['Prod', 0, 3, 'no answer: Could not reach it'],
      ['Embedded server', 200, 12, 'retrieve · 2 of 9 records'],
    ]);
  });

  it('never records a password or token typed in a document', async () => {
    const runLog = new RunLog();
    const history = new MemoryHistoryStore();
    recordRuns(runLog, history, new QueryClient(), vi.fn());
    runLog.record({ connection: { id: 'embedded', name: 'E' }, document: '{"__meta__": {"namespace": "system.User", "intent": "login", "schema": "controller"}, "username": "admin", "password": "admin-demo"}', outcome: { kind: 'failed', message: 'x' }, at: 1 });
    await vi.waitFor(async () => expect(await history.count()).toBe(1));
    const [run] = await history.list();
    expect(run?.document).not.toContain('admin-demo');
    expect(run?.document).toContain('"password": "(redacted)"');
  });

  it('reports a history that fails instead of failing the run', async () => {
    const runLog = new RunLog();
    const onError = vi.fn();
    const broken = Object.assign(new MemoryHistoryStore(), { add: () => Promise.reject(new Error('quota exceeded')) });
    recordRuns(runLog, broken, new QueryClient(), onError);
    runLog.record({ connection: { id: 'embedded', name: 'E' }, document: '{}', outcome: { kind: 'failed', message: 'x' }, at: 1 });
    await vi.waitFor(() => expect(onError).toHaveBeenCalledWith('The run was not recorded in the history: quota exceeded'));
  });
});
