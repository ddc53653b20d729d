import { describe, expect, it } from 'vitest';
import { normalizeParsed } from '../../response/normalize-envelope.ts';
import { IDBFactory } from 'fake-indexeddb';
import { checkRetention, matchesQuery, searchWords, type HistoryRun, type NewHistoryRun } from './history-types.ts';
import { historyId, IdbHistoryStore } from './idb-history-store.ts';
import { summarizeFailure, summarizeView } from './summarize-run.ts';

const run = (at: number, extra: Partial<NewHistoryRun> = {}): NewHistoryRun => ({
  connectionId: 'embedded',
  connectionName: 'Embedded',
  document: `{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve"}, "n": ${at}}`,
  status: 200,
  timeMs: 12.5,
  size: 400,
  summary: 'retrieve · 3 records',
  at,
  ...extra,
});

/** A fresh in-memory IndexedDB (fake-indexeddb) that counts opens and can refuse the next one. */
function countingFactory() {
  const real = new IDBFactory();
  const probe = { opens: 0, failNextOpen: false };
  const factory = Object.create(real) as IDBFactory;
  factory.open = (name: string, version?: number) => {
    probe.opens++;
    if (probe.failNextOpen) {
      probe.failNextOpen = false;
      // An open that fails (a browser throws a TypeError for version 0).
      return real.open(name, 0);
    }
    return real.open(name, version);
  };
  return { factory, probe };
}

function store(retention = 1000) {
  const { factory, probe } = countingFactory();
  let n = 0;
  return { factory: probe, history: new IdbHistoryStore(factory, { retention, newId: () => `id${String(++n).padStart(4, '0')}` }) };
}

describe('IdbHistoryStore', () => {
  it('adds runs and lists them newest first', async () => {
    const { history, factory } = store();
    const first = await history.add(run(1000));
    await history.add(run(3000));
    await history.add(run(2000));
    expect(first).toEqual({ id: 'id0001', ...run(1000) });
    expect((await history.list()).map((r) => r.at)).toEqual([3000, 2000, 1000]);
    expect(await history.count()).toBe(3);
    expect(factory.opens).toBe(1);
  });

  it('pages with limit and offset', async () => {
    const { history } = store();
    for (let i = 1; i <= 5; i++) await history.add(run(i));
    expect((await history.list({ limit: 2 })).map((r) => r.at)).toEqual([5, 4]);
    expect((await history.list({ limit: 2, offset: 2 })).map((r) => r.at)).toEqual([3, 2]);
    expect(await history.list({ limit: 0 })).toEqual([]);
  });

  it('searches document, summary and connection name, and filters by connection and outcome', async () => {
    const { history } = store();
    await history.add(run(1, { document: '{"__meta__": {"namespace": "chat.Message"}}', summary: 'retrieve · 1 record' }));
    await history.add(run(2, { connectionId: 'prod', connectionName: 'Production', status: 422, summary: 'validation_error: title is required' }));
    await history.add(run(3, { status: 0, summary: 'no answer: timeout' }));
    const ats = async (q: Parameters<typeof history.list>[0]) => (await history.list(q)).map((r) => r.at);
    expect(await ats({ text: 'CHAT' })).toEqual([1]);
    expect(await ats({ text: 'ticket required' })).toEqual([2]);
    expect(await ats({ text: 'production' })).toEqual([2]);
    expect(await ats({ connectionId: 'embedded' })).toEqual([3, 1]);
    expect(await ats({ outcome: 'error' })).toEqual([3, 2]);
    expect(await ats({ outcome: 'ok' })).toEqual([1]);
    expect(await ats({ text: 'tickets', outcome: 'error', limit: 1 })).toEqual([3]);
  });

  it('drops the oldest runs beyond the retention limit', async () => {
    const { history } = store(3);
    for (const at of [10, 50, 20, 40, 30]) await history.add(run(at));
    expect((await history.list()).map((r) => r.at)).toEqual([50, 40, 30]);
    expect(await history.count()).toBe(3);
  });

  it('gets, deletes and clears', async () => {
    const { history } = store();
    const a = await history.add(run(1));
    const b = await history.add(run(2));
    expect(await history.get(a.id)).toEqual(a);
    expect(await history.get('nope')).toBeNull();
    await history.delete(a.id);
    expect((await history.list()).map((r) => r.id)).toEqual([b.id]);
    await history.clear();
    expect(await history.count()).toBe(0);
  });

  it('keeps runs with the same time in the order they were added', async () => {
    const history = new IdbHistoryStore(new IDBFactory());
    for (let i = 0; i < 5; i++) await history.add(run(7, { summary: `#${i}` }));
    expect((await history.list()).map((r) => r.summary)).toEqual(['#4', '#3', '#2', '#1', '#0']);
  });

  it('reopens after a failed open', async () => {
    const { history, factory } = store();
    factory.failNextOpen = true;
    await expect(history.count()).rejects.toThrow(TypeError);
    expect(await history.count()).toBe(0);
  });

  it('refuses a bad retention', () => {
    expect(() => new IdbHistoryStore(new IDBFactory(), { retention: 0 })).toThrow();
    expect(checkRetention(5)).toBe(5);
  });
});

describe('matchesQuery', () => {
  const r: HistoryRun = { id: 'x', ...run(1) };
  it('needs every word and the filters', () => {
    expect(searchWords('  A  b ')).toEqual(['a', 'b']);
    expect(matchesQuery(r, {})).toBe(true);
    expect(matchesQuery(r, { text: 'ticket retrieve' })).toBe(true);
    expect(matchesQuery(r, { text: 'ticket delete' })).toBe(false);
    expect(matchesQuery(r, { connectionId: 'other' })).toBe(false);
    expect(matchesQuery({ ...r, status: 299 }, { outcome: 'ok' })).toBe(true);
    expect(matchesQuery({ ...r, status: 300 }, { outcome: 'ok' })).toBe(false);
  });

  it('makes ids that sort by time', () => {
    expect(historyId(1000) < historyId(2000)).toBe(true);
  });
});

describe('summarizeView', () => {
  const env = (payload: unknown, extra: Record<string, unknown> = {}) =>
    normalizeParsed({ __payload__: payload, __message__: null, __extras__: null, __errors__: null, __system__: null, __intent__: 'retrieve', ...extra }, 200);

  it('counts records, with the filtered total when it differs', () => {
    expect(summarizeView(env([{ id: 1 }, { id: 2 }], { __extras__: { filtered: 12, display: 2 } }))).toBe('retrieve · 2 of 12 records');
    expect(summarizeView(env([{ id: 1 }], { __extras__: { filtered: 1 } }))).toBe('retrieve · 1 record');
  });

  it('names counts, ids and plain values', () => {
    expect(summarizeView(env({ count: 42 }, { __intent__: 'count' }))).toBe('count · 42');
    expect(summarizeView(env({ id: 5, title: 'x' }, { __intent__: 'create' }))).toBe('create · id 5');
    expect(summarizeView(env({ ok: true }, { __intent__: 'describe' }))).toBe('describe · object');
    expect(summarizeView(env(null, { __intent__: 'logout' }))).toBe('logout');
    expect(summarizeView(normalizeParsed([1, 2, 3], 200, { renderOnlyData: true }))).toBe('result · 3 records');
  });

  it('leads with the first error', () => {
    const v = normalizeParsed(
      { __payload__: null, __errors__: [{ code: 'unknown_field', message: 'No field "priorty"' }, { code: 'unknown_field', message: 'x' }], __intent__: 'retrieve' },
      400,
    );
    expect(summarizeView(v)).toBe('unknown_field: No field "priorty" (+1 more)');
  });

  it('tallies a multi-query and reports unreadable bodies', () => {
    const multi = normalizeParsed(
      { __payload__: { a: { data: [], errors: null }, b: { data: null, errors: [{ code: 'forbidden', message: 'no' }] } }, __intent__: 'multi', __errors__: null },
      200,
    );
    expect(summarizeView(multi)).toBe('multi · 2 queries, 1 failed');
    expect(summarizeView({ ...multi, isMulti: false, sections: [], parseError: 'The body is not JSON: x', httpStatus: 502 })).toBe('502: The body is not JSON: x');
    expect(summarizeFailure('Could not reach\nhttp://h')).toBe('no answer: Could not reach http://h');
    expect(summarizeFailure('x'.repeat(500))).toHaveLength(200);
  });
});
