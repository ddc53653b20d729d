import { openDatabase, type Sqlite } from '../../server/index.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { historyHandlers } from '../ipc/history-handlers.ts';
import { validators } from '../ipc/validators.ts';
import { likePattern, migrate, SqliteHistoryStore } from './sqlite-history-store.ts';
import type { NewHistoryRun } from '../../shared/history.ts';
import { HistoryInputError, parseHistoryQuery, parseNewRun, parseRunId } from './validate.ts';

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

const open: Sqlite[] = [];
function store(retention = 1000) {
  const db = openDatabase(':memory:');
  open.push(db);
  let n = 0;
  return new SqliteHistoryStore(db, { retention, newId: () => `id${++n}` });
}

afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

describe('SqliteHistoryStore', () => {
  it('adds runs and lists them newest first, ties in insertion order', () => {
    const history = store();
    const first = history.add(run(1000));
    history.add(run(3000));
    history.add(run(2000));
    history.add(run(2000, { summary: 'later' }));
    expect(first).toEqual({ id: 'id1', ...run(1000) });
    expect(history.list().map((r) => [r.at, r.summary])).toEqual([
      [3000, 'retrieve · 3 records'],
      [2000, 'later'],
      [2000, 'retrieve · 3 records'],
      [1000, 'retrieve · 3 records'],
    ]);
    expect(history.count()).toBe(4);
    expect(history.get('id1')).toEqual(first);
    expect(history.get('none')).toBeNull();
  });

  it('searches every word across document, summary and connection name', () => {
    const history = store();
    history.add(run(1, { document: '{"__meta__": {"namespace": "chat.Message"}}', summary: 'retrieve · 1 record' }));
    history.add(run(2, { connectionId: 'prod', connectionName: 'Production', status: 422, summary: 'validation_error: title is required' }));
    history.add(run(3, { status: 0, summary: 'no answer: timeout', document: 'odd 100%_done' }));
    const ats = (q: Parameters<typeof history.list>[0]) => history.list(q).map((r) => r.at);
    expect(ats({ text: 'CHAT' })).toEqual([1]);
    expect(ats({ text: 'ticket required' })).toEqual([2]);
    expect(ats({ text: 'production' })).toEqual([2]);
    expect(ats({ connectionId: 'embedded' })).toEqual([3, 1]);
    expect(ats({ outcome: 'error' })).toEqual([3, 2]);
    expect(ats({ outcome: 'ok' })).toEqual([1]);
    // % and _ are literal, not wildcards.
    expect(ats({ text: '100%_' })).toEqual([3]);
    expect(ats({ text: '%' })).toEqual([3]);
    expect(ats({ text: 'retrieve', limit: 1, offset: 1 })).toEqual([1]);
  });

  it('keeps only the newest runs up to the retention limit', () => {
    const history = store(3);
    for (const at of [10, 50, 20, 40, 30]) history.add(run(at));
    expect(history.list().map((r) => r.at)).toEqual([50, 40, 30]);
  });

  it('deletes and clears', () => {
    const history = store();
    const a = history.add(run(1));
    history.add(run(2));
    history.delete(a.id);
    expect(history.count()).toBe(1);
    history.clear();
    expect(history.count()).toBe(0);
  });

  it('records migrations once and reopens a file without redoing them', () => {
    const db = openDatabase(':memory:');
    open.push(db);
    new SqliteHistoryStore(db).add(run(1));
    expect(migrate(db)).toBe(2);
    expect(db.prepare('SELECT COUNT(*) AS n FROM history_migrations').get()).toEqual({ n: 2 });
    expect(new SqliteHistoryStore(db).count()).toBe(1);
  });

  it('keeps the tab a run came from, and reads older records without one', () => {
    const db = openDatabase(':memory:');
    open.push(db);
    // A database made before the column existed: its first migration only, with a run in it.
    db.exec('CREATE TABLE history_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    db.exec(`CREATE TABLE runs (id TEXT PRIMARY KEY, connection_id TEXT NOT NULL, connection_name TEXT NOT NULL, document TEXT NOT NULL,
             status INTEGER NOT NULL, time_ms REAL NOT NULL, size INTEGER NOT NULL, summary TEXT NOT NULL, at INTEGER NOT NULL)`);
    db.prepare("INSERT INTO history_migrations VALUES (1, 'then')").run();
    db.prepare("INSERT INTO runs VALUES ('old', 'embedded', 'Embedded', '{}', 200, 1, 2, 's', 1)").run();
    const history = new SqliteHistoryStore(db, { newId: () => 'new' });
    history.add(run(2, { tabId: 'tab-7' }));
    expect(history.get('new')).toMatchObject({ tabId: 'tab-7' });
    expect(history.get('old')).not.toHaveProperty('tabId');
  });

  it('opens a file and refuses a bad retention', () => {
    const history = SqliteHistoryStore.open(':memory:', { retention: 2 });
    history.add(run(1));
    expect(history.count()).toBe(1);
    history.close();
    expect(() => store(0)).toThrow('positive integer');
  });

  it('escapes LIKE patterns', () => {
    expect(likePattern('a%b_c\\')).toBe('%a\\%b\\_c\\\\%');
  });
});

describe('history IPC input', () => {
  it('accepts a well-formed run and query', () => {
    expect(parseNewRun(run(5))).toEqual(run(5));
    expect(parseNewRun(run(5, { tabId: 't1' }))).toEqual(run(5, { tabId: 't1' }));
    expect(parseHistoryQuery({ text: 'x', connectionId: 'c', outcome: 'ok', limit: 5000, offset: 2 })).toEqual({ text: 'x', connectionId: 'c', outcome: 'ok', limit: 1000, offset: 2 });
    expect(parseHistoryQuery(undefined)).toEqual({});
    expect(parseRunId('id1')).toBe('id1');
  });

  it('rejects anything else', () => {
    expect(() => parseNewRun(null)).toThrow(HistoryInputError);
    expect(() => parseNewRun({ ...run(1), status: '200' })).toThrow('status must be an integer ≥ 0');
    expect(() => parseNewRun({ ...run(1), timeMs: Number.NaN })).toThrow('timeMs');
    expect(() => parseNewRun({ ...run(1), summary: 'x'.repeat(2000) })).toThrow('longer than');
    expect(() => parseNewRun({ ...run(1), document: 7 })).toThrow('document must be a string');
    expect(() => parseNewRun({ ...run(1), tabId: 7 })).toThrow('tabId must be a string');
    expect(() => parseHistoryQuery({ outcome: 'maybe' })).toThrow('outcome');
    expect(() => parseHistoryQuery({ limit: -1 })).toThrow('limit');
    expect(() => parseHistoryQuery('text')).toThrow();
    expect(() => parseRunId('')).toThrow();
    expect(() => parseRunId({})).toThrow();
  });

  it('wires the IPC channels: arguments are checked before the store is touched', () => {
    const history = store();
    const handlers = historyHandlers(history);
    const call = <C extends keyof typeof handlers>(channel: C, ...args: unknown[]) =>
      (handlers[channel] as (...a: unknown[]) => unknown)(...(validators[channel](args) as unknown[]));
    const added = call('history:add', run(1)) as { id: string };
    expect(call('history:list', { text: 'ticket' })).toEqual([added]);
    expect(call('history:get', added.id)).toEqual(added);
    expect(call('history:count')).toBe(1);
    expect(() => call('history:add', { bogus: true })).toThrow(HistoryInputError);
    expect(() => call('history:delete', 5)).toThrow(HistoryInputError);
    expect(() => call('history:clear', 'extra')).toThrow();
    call('history:delete', added.id);
    expect(call('history:count')).toBe(0);
    call('history:add', run(2));
    call('history:clear');
    expect(history.count()).toBe(0);
  });
});
