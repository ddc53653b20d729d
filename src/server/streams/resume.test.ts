import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixture.ts';
import { item, writeStreamsWorkspace } from '../testing/streams-workspace.ts';
import { startStreamServer, StreamClient, type StreamServer } from '../testing/stream-client.ts';

const names = (events: any[]) => events.map((e) => e.record.name);
const seqs = (events: any[]) => events.map((e) => e.seq);

async function createItems(s: StreamServer, prefix: string, count: number, extra: Record<string, unknown> = {}): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await s.post(item('create', { name: `${prefix}${i}`, ...extra }));
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
}

describe('resume with since', () => {
  let s: StreamServer;
  beforeAll(async () => {
    s = await startStreamServer({ workspace: writeStreamsWorkspace() });
  });
  afterAll(() => s.close());

  it('a subscriber that misses 50 events gets exactly those 50 in order, then live ones', async () => {
    const first = await StreamClient.connect(s.wsUrl);
    await first.subscribe({ id: 'items', namespace: 'shop.Item' });
    await createItems(s, 'seen-', 3);
    const seen = await first.events('items', 3);
    const lastSeen = seen[2].seq;
    await first.close();

    for (let i = 0; i < 50; i++) {
      await s.post(item('create', { name: `missed-${i}` }));
      // Events of another namespace take sequence numbers in between: the replay skips them.
      if (i % 10 === 0) await s.post({ __meta__: { namespace: 'shop.Category', intent: 'create' }, name: `c${i}` });
    }

    const second = await StreamClient.connect(s.wsUrl);
    const subscribed = await second.subscribe({ id: 'items', namespace: 'shop.Item', since: lastSeen });
    expect(subscribed.seq).toBe(lastSeen + 55);
    expect(subscribed).not.toHaveProperty('truncated');
    const replayed = await second.events('items', 50);
    expect(names(replayed)).toEqual(Array.from({ length: 50 }, (_, i) => `missed-${i}`));
    expect(second.messages.indexOf(subscribed)).toBeLessThan(second.messages.indexOf(replayed[0]));
    await s.post(item('create', { name: 'live' }));
    const all = await second.events('items', 51);
    expect(names(all.slice(50))).toEqual(['live']);
    expect(all[50].seq).toBe(subscribed.seq + 1);
    await second.roundTrip();
    expect(second.messages.filter((m) => m.type === 'event')).toHaveLength(51);
    await second.close();
  });

  it('events committed while a long replay is sent arrive once each, with no gap', async () => {
    const watcher = await StreamClient.connect(s.wsUrl);
    const { seq: start } = await watcher.subscribe({ id: 'w', namespace: 'shop.Item' });
    await watcher.close();
    await createItems(s, 'backlog-', 450);

    const c = await StreamClient.connect(s.wsUrl);
    c.send({ type: 'subscribe', id: 'r', namespace: 'shop.Item', since: start });
    // Writes race the replay: some commit before the subscription, some during its batches.
    await Promise.all(Array.from({ length: 40 }, (_, i) => s.post(item('create', { name: `during-${i}` }))));
    const events = await c.events('r', 490, 15_000);
    await c.roundTrip();
    const received = c.messages.filter((m) => m.type === 'event');
    expect(received).toHaveLength(490);
    expect(seqs(received)).toEqual(Array.from({ length: 490 }, (_, i) => start + 1 + i));
    expect(new Set(names(events)).size).toBe(490);
    await c.close();
  });
});

describe('retention', () => {
  it('keeps the last maxStreamEvents events; an older since is marked truncated', async () => {
    const s = await startStreamServer({ workspace: writeStreamsWorkspace({ maxStreamEvents: 10 }) });
    try {
      await createItems(s, 'r-', 25);
      const c = await StreamClient.connect(s.wsUrl);
      expect(await c.subscribe({ id: 'old', namespace: 'shop.Item', since: 0 })).toEqual({ type: 'subscribed', id: 'old', seq: 25, truncated: true });
      expect(seqs(await c.events('old', 10))).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
      expect(await c.subscribe({ id: 'recent', namespace: 'shop.Item', since: 20 })).toEqual({ type: 'subscribed', id: 'recent', seq: 25 });
      expect(seqs(await c.events('recent', 5))).toEqual([21, 22, 23, 24, 25]);
      // A `since` ahead of the log (another server's numbers) starts live.
      expect(await c.subscribe({ id: 'ahead', namespace: 'shop.Item', since: 1000 })).toEqual({ type: 'subscribed', id: 'ahead', seq: 25 });
      await s.post(item('create', { name: 'next' }));
      expect(seqs(await c.events('ahead', 1))).toEqual([26]);
      await c.close();
    } finally {
      await s.close();
    }
  });

  it('the log is persisted: numbers continue and since replays across a restart', async () => {
    const dataDir = tempDir('jql-streams-restart-');
    const workspace = writeStreamsWorkspace();
    try {
      const before = await startStreamServer({ workspace, dataDir });
      await createItems(before, 'before-', 3);
      await before.close();
      const after = await startStreamServer({ workspace, dataDir });
      try {
        await createItems(after, 'after-', 1);
        const c = await StreamClient.connect(after.wsUrl);
        expect(await c.subscribe({ id: 'x', namespace: 'shop.Item', since: 1 })).toMatchObject({ seq: 4 });
        const events = await c.events('x', 3);
        expect(events.map((e) => [e.seq, e.record.name])).toEqual([
          [2, 'before-1'],
          [3, 'before-2'],
          [4, 'after-0'],
        ]);
        await c.close();
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('slow subscribers', () => {
  it('closes a subscriber too far behind with 4008; it resumes with since and loses nothing', async () => {
    const s = await startStreamServer({ workspace: writeStreamsWorkspace(), streams: { maxBehind: 20 } });
    try {
      const slow = await StreamClient.connect(s.wsUrl);
      await slow.subscribe({ id: 'big', namespace: 'shop.Item' });
      const socket = (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      socket.pause();
      // Large records fill the kernel's socket buffers, so the server's writes stop completing; write
      // until the server gives up on the socket (how much the kernel buffers varies by machine).
      const blurb = 'x'.repeat(64 * 1024);
      const serverSide = [...s.server.webSockets()][0]!;
      let total = 0;
      while (serverSide.readyState === serverSide.OPEN && total < 1000) {
        const res = await s.post(item('create', { name: `big-${total}`, blurb }));
        expect(res.status).toBe(200);
        total += 1;
      }
      expect(serverSide.readyState).not.toBe(serverSide.OPEN);
      await createItems(s, 'after-', 5);
      socket.resume();
      const closed = await slow.closed;
      expect(closed.code).toBe(4008);
      expect(closed.reason).toMatch(/since/);
      const got = slow.messages.filter((m) => m.type === 'event');
      const expected = [...Array.from({ length: total }, (_, i) => `big-${i}`), ...Array.from({ length: 5 }, (_, i) => `after-${i}`)];
      expect(got.length).toBeLessThan(expected.length);

      const resumed = await StreamClient.connect(s.wsUrl);
      const since = got.length > 0 ? got[got.length - 1].seq : 0;
      await resumed.subscribe({ id: 'big', namespace: 'shop.Item', since, fields: { name: null } });
      const rest = await resumed.events('big', expected.length - got.length, 15_000);
      expect([...names(got), ...names(rest)]).toEqual(expected);
      await resumed.close();
    } finally {
      await s.close();
    }
  });
});
