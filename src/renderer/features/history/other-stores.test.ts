import { describe, expect, it } from 'vitest';
import { normalizeParsed } from '../../response/normalize-envelope.ts';
import { BridgeHistoryStore, type HistoryBridge } from './bridge-history-store.ts';
import type { NewHistoryRun } from './history-types.ts';
import { MemoryHistoryStore } from './memory-history-store.ts';
import { historyKeys, historyRunFrom } from './record-run.ts';

const run = (at: number, extra: Partial<NewHistoryRun> = {}): NewHistoryRun => ({
  connectionId: 'c1',
  connectionName: 'Local',
  document: '{}',
  status: 200,
  timeMs: 1,
  size: 2,
  summary: 'retrieve · 0 records',
  at,
  ...extra,
});

describe('MemoryHistoryStore', () => {
  it('follows the same rules as the persistent stores', async () => {
    const history = new MemoryHistoryStore(3);
    for (const at of [10, 50, 20, 40, 30]) await history.add(run(at, { summary: `s${at}` }));
    await history.add(run(40, { summary: 'again' }));
    expect((await history.list()).map((r) => r.summary)).toEqual(['s50', 'again', 's40']);
    expect((await history.list({ text: 'AGAIN' })).map((r) => r.at)).toEqual([40]);
    expect((await history.list({ limit: 1, offset: 1 })).map((r) => r.summary)).toEqual(['again']);
    const [first] = await history.list();
    expect(await history.get(first!.id)).toEqual(first);
    await history.delete(first!.id);
    expect(await history.count()).toBe(2);
    await history.clear();
    expect(await history.get('m1')).toBeNull();
  });
});

describe('BridgeHistoryStore', () => {
  it('passes each call to its bridge method', async () => {
    const calls: unknown[][] = [];
    const bridge: HistoryBridge = {
      historyAdd: async (r) => (calls.push(['add', r]), { id: 'x', ...r }),
      historyList: async (q) => (calls.push(['list', q]), []),
      historyGet: async (id) => (calls.push(['get', id]), null),
      historyDelete: async (id) => void calls.push(['delete', id]),
      historyClear: async () => void calls.push(['clear']),
      historyCount: async () => (calls.push(['count']), 7),
    };
    const history = new BridgeHistoryStore(bridge, 500);
    expect(await history.add(run(1))).toMatchObject({ id: 'x' });
    await history.list();
    await history.get('a');
    await history.delete('a');
    await history.clear();
    expect(await history.count()).toBe(7);
    expect(history.retention).toBe(500);
    expect(calls.map((c) => c[0])).toEqual(['add', 'list', 'get', 'delete', 'clear', 'count']);
    expect(calls[1]).toEqual(['list', {}]);
  });
});

describe('historyRunFrom', () => {
  it('records an answered run with its summary, and a failed one with status 0', () => {
    const view = normalizeParsed({ __payload__: [{ id: 1 }], __intent__: 'retrieve', __errors__: null, __extras__: { filtered: 1 } }, 200);
    expect(historyRunFrom({ id: 'c1', name: 'Local' }, '{}', { kind: 'answered', status: 200, timeMs: 12.6, size: 30, view }, 99)).toEqual({
      connectionId: 'c1',
      connectionName: 'Local',
      document: '{}',
      at: 99,
      status: 200,
      timeMs: 13,
      size: 30,
      summary: 'retrieve · 1 record',
    });
    expect(historyRunFrom({ id: 'c1', name: 'Local' }, '{}', { kind: 'failed', message: 'timeout' }, 5)).toMatchObject({ status: 0, size: 0, timeMs: 0, summary: 'no answer: timeout' });
    expect(historyKeys.list({ text: 'a', connectionId: null, outcome: null })).toEqual(['history', 'list', { text: 'a', connectionId: null, outcome: null }]);
  });
});
