import { describe, expect, it } from 'vitest';
import { EventLog, type LogEntry, type NewLogEntry } from './event-log.ts';
import { compileLogQuery, tokenize } from './log-query.ts';
import { exportFileName, toNdjson } from './ndjson.ts';

const ev = (seq: number, extra: Partial<Extract<NewLogEntry, { kind: 'event' }>> = {}): NewLogEntry => ({
  kind: 'event',
  receivedAt: 1_700_000_000_000 + seq,
  subscription: 's1',
  event: 'created',
  namespace: 'tickets.Ticket',
  seq,
  at: '2026-01-01T00:00:00Z',
  record: { id: seq, title: `Ticket ${seq}` },
  recordId: seq,
  replayed: false,
  bytes: 100,
  ...extra,
});

const seqs = (entries: LogEntry[]) => entries.map((e) => (e.kind === 'event' ? e.seq : e.text));

describe('EventLog', () => {
  it('is bounded in bytes too: 10 MB events push out the oldest, counted (issue 22.7)', () => {
    const log = new EventLog(50_000, 64 * 1024 * 1024);
    for (let i = 1; i <= 20; i++) log.append(ev(i, { bytes: 10 * 1024 * 1024 }));
    const view = log.view();
    expect(view.size).toBe(6);
    expect(view.bytes).toBeLessThanOrEqual(64 * 1024 * 1024);
    expect(view.dropped).toBe(14);
    expect(seqs(log.entries())).toEqual([15, 16, 17, 18, 19, 20]);
    // One entry larger than the cap is still kept, alone.
    log.append(ev(21, { bytes: 100 * 1024 * 1024 }));
    expect(seqs(log.entries())).toEqual([21]);
    log.clear();
    expect(log.view().bytes).toBe(0);
  });
  it('keeps the newest entries up to its capacity', () => {
    const log = new EventLog(3);
    for (let i = 1; i <= 5; i++) log.append(ev(i));
    const view = log.view();
    expect(view).toMatchObject({ count: 3, size: 3, dropped: 2, capacity: 3, paused: false, pending: 0 });
    expect([0, 1, 2].map((r) => (view.at(r) as { seq: number }).seq)).toEqual([3, 4, 5]);
    expect(view.at(3)).toBeUndefined();
    expect(log.entries().map((e) => e.index)).toEqual([2, 3, 4]);
    expect(log.get(1)).toBeUndefined();
    expect(log.get(4)).toMatchObject({ seq: 5 });
  });

  it('keeps filling while paused and shows the rest on resume', () => {
    const log = new EventLog(100);
    log.append(ev(1));
    log.pause();
    log.append(ev(2));
    log.append(ev(3));
    expect(log.view()).toMatchObject({ count: 1, pending: 2, size: 3, paused: true });
    log.resume();
    expect(log.view()).toMatchObject({ count: 3, pending: 0, paused: false });
  });

  it('stays consistent when the cap evicts what a pause froze', () => {
    const log = new EventLog(2);
    log.append(ev(1));
    log.append(ev(2));
    log.pause();
    log.append(ev(3));
    log.append(ev(4));
    expect(log.view().count).toBe(0);
    expect(log.view().pending).toBe(2);
    log.resume();
    expect(seqs(log.visibleEntries())).toEqual([3, 4]);
  });

  it('clears, and counts drops from the clear on', () => {
    const log = new EventLog(2);
    for (let i = 1; i <= 4; i++) log.append(ev(i));
    log.clear();
    expect(log.view()).toMatchObject({ count: 0, size: 0, dropped: 0 });
    log.append(ev(5));
    expect(log.view().count).toBe(1);
    expect(log.visibleEntries()[0]?.index).toBe(4);
  });

  it('filters incrementally, including entries appended later and evicted ones', () => {
    const log = new EventLog(5);
    for (let i = 1; i <= 4; i++) log.append(ev(i, { event: i % 2 ? 'created' : 'deleted' }));
    log.setFilter(compileLogQuery('event:deleted'));
    expect(seqs(log.visibleEntries())).toEqual([2, 4]);
    for (let i = 5; i <= 8; i++) log.append(ev(i, { event: i % 2 ? 'created' : 'deleted' }));
    // Held now: 4..8.
    expect(seqs(log.visibleEntries())).toEqual([4, 6, 8]);
    expect(log.view().filtered).toBe(true);
    log.setFilter(null);
    expect(log.view().count).toBe(5);
  });

  it('returns the same view object until something changes', () => {
    const log = new EventLog(10);
    log.append(ev(1));
    const a = log.view();
    expect(log.view()).toBe(a);
    log.append(ev(2));
    expect(log.view()).not.toBe(a);
    expect(log.view().version).toBeGreaterThan(a.version);
  });

  it('notifies listeners on every change', () => {
    const log = new EventLog(10);
    let calls = 0;
    const off = log.subscribe(() => calls++);
    log.append(ev(1));
    log.pause();
    log.pause();
    log.resume();
    log.clear();
    off();
    log.append(ev(2));
    expect(calls).toBe(4);
  });

  it('keeps up with many events: each entry is tested by the filter at most once, however often the view is read', () => {
    // The bound, not a time (timings belong to the benchmarks): the view is read every 1,000 events,
    // as the inspector does while a stream runs, and the filter still runs once per entry, never
    // over the whole log again.
    const log = new EventLog(50_000);
    const filter = compileLogQuery('event:updated')!;
    let tested = 0;
    log.setFilter((entry) => {
      tested++;
      return filter(entry);
    });
    for (let i = 0; i < 200_000; i++) {
      log.append(ev(i, { event: i % 3 === 0 ? 'updated' : 'created' }));
      if (i % 1000 === 999) log.view();
    }
    const view = log.view();
    expect(view.size).toBe(50_000);
    expect(view.count).toBe(Math.ceil(50_000 / 3));
    expect(tested).toBeLessThanOrEqual(200_000);
  });

  it('rejects a bad capacity', () => {
    expect(() => new EventLog(0)).toThrow();
  });
});

describe('compileLogQuery', () => {
  const log = new EventLog(100);
  log.append(ev(1, { event: 'created', record: { id: 1, title: 'Printer on fire' } }));
  log.append(ev(2, { event: 'updated', namespace: 'chat.Message', subscription: 's2', record: { id: 'm7', text: 'hello' }, recordId: 'm7' }));
  log.append(ev(3, { event: 'deleted', record: { id: 1 }, recordId: 1, replayed: true }));
  log.append({ kind: 'marker', level: 'warn', text: 'Disconnected.', subscription: null, receivedAt: 0 });
  const run = (q: string) => {
    log.setFilter(compileLogQuery(q));
    return seqs(log.visibleEntries());
  };

  it('matches free words anywhere, case-insensitively, all of them', () => {
    expect(run('printer')).toEqual([1, 'Disconnected.']);
    expect(run('PRINTER fire')).toEqual([1, 'Disconnected.']);
    expect(run('printer hello')).toEqual(['Disconnected.']);
    expect(run('"on fire"')).toEqual([1, 'Disconnected.']);
  });

  it('filters on columns', () => {
    expect(run('event:deleted')).toEqual([3, 'Disconnected.']);
    expect(run('ns:Message')).toEqual([2, 'Disconnected.']);
    expect(run('namespace:tickets.Ticket')).toEqual([1, 3, 'Disconnected.']);
    expect(run('id:1')).toEqual([1, 3, 'Disconnected.']);
    expect(run('id:m7 sub:s2')).toEqual([2, 'Disconnected.']);
    expect(run('seq:>1 seq:<=2')).toEqual([2, 'Disconnected.']);
    expect(run('seq:3')).toEqual([3, 'Disconnected.']);
    expect(run('replayed:true')).toEqual([3, 'Disconnected.']);
  });

  it('negates with -, and treats unknown keys as words', () => {
    expect(run('-event:created -event:updated')).toEqual([3, 'Disconnected.']);
    expect(run('nokey:printer')).toEqual(['Disconnected.']);
    expect(compileLogQuery('   ')).toBeNull();
    expect(tokenize('a ns:"x y" -"b c"')).toEqual(['a', 'ns:x y', '-b c']);
  });
});

describe('toNdjson', () => {
  it('writes one wire-shaped event per line and skips markers', () => {
    const log = new EventLog(10);
    log.append(ev(1));
    log.append({ kind: 'marker', level: 'info', text: 'Connected.', subscription: null, receivedAt: 0 });
    log.append(ev(2, { replayed: true }));
    const lines = toNdjson(log.entries()).trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { type: 'event', subscription: 's1', event: 'created', namespace: 'tickets.Ticket', seq: 1, at: '2026-01-01T00:00:00Z', record: { id: 1, title: 'Ticket 1' }, received_at: new Date(1_700_000_000_001).toISOString() },
      expect.objectContaining({ seq: 2, replayed: true }),
    ]);
    expect(toNdjson([])).toBe('');
    expect(exportFileName(new Date('2026-01-02T03:04:05.678Z'))).toBe('jql-stream-2026-01-02T03-04-05-678Z.ndjson');
  });
});
