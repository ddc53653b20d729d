import { describe, expect, it, vi } from 'vitest';
import { FakeStreamServer, flush } from './fake-stream-server.ts';
import { StreamSession } from './stream-session.ts';

describe('StreamSession', () => {
  it('logs events, markers and rates, and keeps the settings between mounts', async () => {
    vi.useFakeTimers();
    try {
      const server = new FakeStreamServer();
      let now = 5_000;
      const session = new StreamSession({ connect: server.connect, now: () => now, capacity: 100, batch: { schedule: (run) => run() } });
      const id = session.addSubscription({ namespace: 'tickets.Ticket' });
      session.connect();
      await flush();
      expect(session.getSnapshot()).toMatchObject({ connection: 'open', subscriptions: [{ id, status: 'pending' }] });
      server.last.push({ type: 'subscribed', id, seq: 1 });
      server.last.event(id, 2, 'created', { id: 9, title: 'x' });
      server.last.event(id, 3, 'deleted', { id: 9 });
      // After a good run, falling behind resumes at once.
      now = 60_000;
      server.last.drop(4008);
      await vi.advanceTimersByTimeAsync(0);
      server.last.push({ type: 'subscribed', id, seq: 3 });
      server.last.push({ type: 'error', id: null, error: { code: 'internal_error', message: 'hiccup' } });

      const entries = session.log.entries();
      expect(entries.map((e) => (e.kind === 'event' ? `${e.event}:${e.seq}:${String(e.recordId)}` : `${e.level}:${e.text}`))).toEqual([
        'info:Connected.',
        'created:2:9',
        'deleted:3:9',
        'warn:Disconnected: the console fell behind (4008); reconnecting.',
        'info:Reconnected.',
        `ok:${id}: The server dropped the stream because the console fell behind (4008). Resumed at seq 3: nothing missed.`,
        'error:internal_error: hiccup',
      ]);
      expect(session.rates.series(5_000).buckets.at(-1)?.counts).toEqual({ created: 1, deleted: 1 });

      session.setQuery('event:deleted');
      session.setAutoscroll(false);
      session.select(2);
      expect(session.log.view().count).toBe(6); // the deleted event and the five markers
      expect(session.getSnapshot()).toMatchObject({ query: 'event:deleted', autoscroll: false, selected: 2 });
      session.clear();
      expect(session.log.view().size).toBe(0);
      expect(session.getSnapshot().selected).toBeNull();
      now += 1000;
      session.disconnect();
      expect(session.getSnapshot().connection).toBe('closed');
      expect(session.log.entries().map((e) => (e.kind === 'marker' ? e.text : ''))).toEqual(['Disconnected.']);
      session.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});
