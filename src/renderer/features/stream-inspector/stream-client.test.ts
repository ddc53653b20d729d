import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeStreamServer, flush } from './fake-stream-server.ts';
import { judgeResume } from './gap-marker.ts';
import { StreamClient, type StreamNotice } from './stream-client.ts';
import { emptyDraft, validateDraft } from './subscription-draft.ts';
import { browserSocketConnector, streamUrl, type WebSocketLike } from './stream-socket.ts';

let server: FakeStreamServer;
let notices: StreamNotice[];
let client: StreamClient;
let clock: number;

async function started(options: Partial<ConstructorParameters<typeof StreamClient>[0]> = {}) {
  client = new StreamClient({ connect: server.connect, now: () => clock, random: () => 1, ...options });
  client.on((n) => notices.push(n));
  client.start();
  await flush();
}

const events = () => notices.filter((n) => n.type === 'event').map((n) => (n.type === 'event' ? [n.event.subscription, n.event.seq, n.replayed] : null));
const gaps = () => notices.flatMap((n) => (n.type === 'gap' ? [n.marker] : []));

beforeEach(() => {
  vi.useFakeTimers();
  server = new FakeStreamServer();
  notices = [];
  clock = 0;
});

afterEach(() => {
  client?.stop();
  vi.useRealTimers();
});

describe('StreamClient', () => {
  it('subscribes several subscriptions on open and routes their events', async () => {
    await started();
    expect(client.state).toBe('open');
    const a = client.subscribe({ namespace: 'tickets.Ticket', schema: 'model', events: ['created'] });
    const b = client.subscribe({ namespace: 'chat.Message', schema: 'nosql' });
    expect([a, b]).toEqual(['s1', 's2']);
    expect(server.last.sent).toEqual([
      { type: 'subscribe', id: 's1', namespace: 'tickets.Ticket', schema: 'model', events: ['created'] },
      { type: 'subscribe', id: 's2', namespace: 'chat.Message', schema: 'nosql' },
    ]);
    server.last.push({ type: 'subscribed', id: 's1', seq: 10 });
    server.last.push({ type: 'subscribed', id: 's2', seq: 10 });
    server.last.event('s1', 11);
    server.last.event('s2', 12, 'created', { id: 'm1' }, 'chat.Message');
    server.last.event('s9', 13);
    expect(events()).toEqual([['s1', 11, false], ['s2', 12, false]]);
    expect(client.subscriptions().map((s) => [s.id, s.status, s.cursor, s.received])).toEqual([['s1', 'active', 11, 1], ['s2', 'active', 12, 1]]);
  });

  it('sends a filter typed on 64-bit ids with their digits, not rounded to other records (issue 31 item 4)', async () => {
    await started();
    const draft = validateDraft({ ...emptyDraft('tickets.Ticket'), filterText: '{"id__in": [9007199254740993, 12345678901234567890]}' }, null);
    if (!draft.ok) throw new Error('the draft should be valid');
    client.subscribe(draft.spec);
    expect(server.last.texts).toEqual(['{"type":"subscribe","id":"s1","namespace":"tickets.Ticket","schema":"model","filter":{"id__in":[9007199254740993,12345678901234567890]}}']);
  });

  it('sends subscriptions made before the socket opens once, when it opens', async () => {
    client = new StreamClient({ connect: server.connect, now: () => clock });
    client.subscribe({ namespace: 'tickets.Ticket' });
    client.on((n) => {
      if (n.type === 'connection' && n.state === 'open') client.subscribe({ namespace: 'chat.Message' });
    });
    client.start();
    await flush();
    expect(server.last.sent.map((m) => m.id)).toEqual(['s1', 's2']);
  });

  it('unsubscribes and ignores late events of that subscription', async () => {
    await started();
    client.subscribe({ namespace: 'tickets.Ticket' });
    server.last.push({ type: 'subscribed', id: 's1', seq: 1 });
    client.unsubscribe('s1');
    expect(server.last.sent.at(-1)).toEqual({ type: 'unsubscribe', id: 's1' });
    server.last.event('s1', 2);
    expect(events()).toEqual([]);
    expect(client.subscriptions()).toEqual([]);
  });

  it('resumes with since = last seq seen, marks replays, drops duplicates and says nothing was missed', async () => {
    await started();
    client.subscribe({ namespace: 'tickets.Ticket' });
    server.last.push({ type: 'subscribed', id: 's1', seq: 100 });
    server.last.event('s1', 101);
    server.last.event('s1', 103);
    server.last.drop(1006);
    expect(client.state).toBe('waiting');
    expect(client.subscriptions()[0]?.status).toBe('pending');

    await vi.advanceTimersByTimeAsync(500);
    expect(server.sockets).toHaveLength(2);
    expect(server.last.sent).toEqual([{ type: 'subscribe', id: 's1', namespace: 'tickets.Ticket', since: 103 }]);
    server.last.push({ type: 'subscribed', id: 's1', seq: 120 });
    server.last.event('s1', 103); // overlap: already seen
    server.last.event('s1', 110);
    server.last.event('s1', 121);
    expect(gaps()).toEqual([expect.objectContaining({ subscription: 's1', since: 103, latest: 120, verdict: 'nothing-missed', closeCode: 1006 })]);
    expect(events()).toEqual([['s1', 101, false], ['s1', 103, false], ['s1', 110, true], ['s1', 121, false]]);
    expect(client.subscriptions()[0]).toMatchObject({ cursor: 121, received: 4, duplicates: 1 });
  });

  it('reconnects at once after 4008 and notes it in the marker', async () => {
    await started();
    client.subscribe({ namespace: 'tickets.Ticket' });
    server.last.push({ type: 'subscribed', id: 's1', seq: 5 });
    // The socket had a good run before it fell behind.
    clock = 60_000;
    server.last.drop(4008, 'too slow');
    await vi.advanceTimersByTimeAsync(0);
    expect(server.sockets).toHaveLength(2);
    expect(server.last.sent[0]).toMatchObject({ since: 5 });
    server.last.push({ type: 'subscribed', id: 's1', seq: 2000 });
    expect(gaps()[0]).toMatchObject({ verdict: 'nothing-missed', closeCode: 4008 });
    expect(gaps()[0]?.reason).toContain('fell behind (4008)');
  });

  it('flags a restarted log and more events than retained', async () => {
    await started({ retention: 100 });
    client.subscribe({ namespace: 'tickets.Ticket' });
    client.subscribe({ namespace: 'chat.Message' });
    server.last.push({ type: 'subscribed', id: 's1', seq: 50 });
    server.last.push({ type: 'subscribed', id: 's2', seq: 50 });
    server.last.drop();
    await vi.advanceTimersByTimeAsync(500);
    server.last.push({ type: 'subscribed', id: 's1', seq: 3 });
    server.last.push({ type: 'subscribed', id: 's2', seq: 500 });
    expect(gaps().map((g) => [g.subscription, g.verdict])).toEqual([['s1', 'missed'], ['s2', 'possibly-missed']]);
  });

  it('marks a resume the server refuses as missed and keeps the subscription in error', async () => {
    await started();
    client.subscribe({ namespace: 'tickets.Ticket' });
    server.last.push({ type: 'subscribed', id: 's1', seq: 7 });
    server.last.drop();
    await vi.advanceTimersByTimeAsync(500);
    server.last.push({ type: 'error', id: 's1', error: { code: 'unauthenticated', message: 'token expired' } });
    expect(gaps()[0]).toMatchObject({ verdict: 'missed', since: 7, latest: null });
    expect(client.subscriptions()[0]).toMatchObject({ status: 'error', error: { code: 'unauthenticated' } });
    // An errored subscription is not re-sent on the next reconnect, only by retry().
    server.last.drop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.last.sent).toEqual([]);
    client.retry('s1');
    expect(server.last.sent).toEqual([{ type: 'subscribe', id: 's1', namespace: 'tickets.Ticket', since: 7 }]);
  });

  it('starts a fresh subscription at the server seq, so replayed history is not mistaken for live', async () => {
    await started();
    client.subscribe({ namespace: 'tickets.Ticket' }, { since: 40 });
    expect(server.last.sent[0]).toMatchObject({ since: 40 });
    server.last.push({ type: 'subscribed', id: 's1', seq: 45 });
    server.last.event('s1', 41);
    server.last.event('s1', 46);
    expect(events()).toEqual([['s1', 41, true], ['s1', 46, false]]);
    expect(gaps()).toEqual([]);
  });

  it('backs off exponentially, to 30 s with jitter, when every socket dies right after opening (issue 22.8)', async () => {
    const delays: number[] = [];
    let jitter = 1;
    await started({ random: () => jitter });
    for (let i = 0; i < 9; i++) {
      // 4008 and 1000 alike: a socket that did not live long is a failed attempt.
      server.last.drop(i % 2 ? 1000 : 4008, 'bye');
      delays.push(Number(/reconnecting in (\d+) s/.exec(client.detail ?? '')?.[1]));
      await vi.advanceTimersByTimeAsync(30_000);
    }
    expect(delays).toEqual([1, 1, 2, 4, 8, 16, 30, 30, 30]);
    expect(server.sockets.length).toBe(10);
    // Half of each wait is random: with the lowest draw, the cap is 15 s.
    jitter = 0;
    server.last.drop(1000, 'bye');
    expect(client.detail).toContain('reconnecting in 15 s');
  });

  it('backs off exponentially while the server is unreachable, and reconnectNow skips the wait', async () => {
    server.refuse = 3;
    await started({ backoffInitialMs: 100, backoffMaxMs: 250 });
    expect(client.state).toBe('waiting');
    expect(client.detail).toContain('reconnecting in 1 s');
    await vi.advanceTimersByTimeAsync(100);
    expect(client.state).toBe('waiting');
    await vi.advanceTimersByTimeAsync(199);
    expect(server.sockets).toHaveLength(0);
    client.reconnectNow();
    await flush();
    expect(client.state).toBe('waiting');
    client.reconnectNow();
    await flush();
    expect(client.state).toBe('open');
  });

  it('pings, and treats a silent peer as gone', async () => {
    await started({ pingIntervalMs: 1000, pongTimeoutMs: 500 });
    const first = server.last;
    clock = 1000;
    await vi.advanceTimersByTimeAsync(1000);
    expect(first.sent).toEqual([{ type: 'ping' }]);
    first.push({ type: 'pong' });
    clock = 2000;
    await vi.advanceTimersByTimeAsync(1000);
    expect(first.sent).toEqual([{ type: 'ping' }, { type: 'ping' }]);
    clock = 3600;
    await vi.advanceTimersByTimeAsync(1000);
    expect(first.closed).toEqual({ code: 4000, reason: 'no answer to ping' });
    expect(client.state).toBe('waiting');
    // A late close of the dead socket changes nothing.
    first.drop(1006);
    await vi.advanceTimersByTimeAsync(500);
    expect(server.sockets).toHaveLength(2);
  });

  it('stop closes the socket and keeps subscriptions for a later resume', async () => {
    await started();
    client.subscribe({ namespace: 'tickets.Ticket' });
    server.last.push({ type: 'subscribed', id: 's1', seq: 9 });
    const socket = server.last;
    client.stop();
    expect(socket.closed).toEqual({ code: 1000, reason: 'closed by the console' });
    expect(client.state).toBe('closed');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.sockets).toHaveLength(1);
    // The socket's own close event after stop() is ignored.
    socket.drop(1000);
    client.start();
    await flush();
    expect(server.last.sent).toEqual([{ type: 'subscribe', id: 's1', namespace: 'tickets.Ticket', since: 9 }]);
  });

  it('reports errors that name no subscription', async () => {
    await started();
    server.last.push({ type: 'error', error: { code: 'invalid_request', message: 'bad frame' } });
    server.last.push('not json');
    expect(notices.filter((n) => n.type === 'error')).toEqual([{ type: 'error', subscription: null, error: { code: 'invalid_request', message: 'bad frame' } }]);
  });
});

describe('judgeResume', () => {
  it('says nothing was missed when nothing happened', () => {
    expect(judgeResume('s1', 5, 5, 10, null)).toMatchObject({ verdict: 'nothing-missed', reason: 'Resumed at seq 5: nothing missed.' });
    expect(judgeResume('s1', 5, 15, 10, null).verdict).toBe('nothing-missed');
    expect(judgeResume('s1', 5, 16, 10, null).verdict).toBe('possibly-missed');
  });
});

describe('browser socket', () => {
  it('builds the ws URL with the token', () => {
    expect(streamUrl('http://127.0.0.1:8787/', 'a b')).toBe('ws://127.0.0.1:8787/jql-streams?token=a+b');
    expect(streamUrl('https://h.example/api', null)).toBe('wss://h.example/api/jql-streams');
  });

  class FakeWs implements WebSocketLike {
    listeners: Record<string, Array<(e: never) => void>> = {};
    sent: string[] = [];
    closedWith: unknown[] | null = null;
    send(data: string) {
      this.sent.push(data);
    }
    close(code?: number, reason?: string) {
      this.closedWith = [code, reason];
    }
    addEventListener(type: string, listener: (e: never) => void) {
      (this.listeners[type] ??= []).push(listener);
    }
    fire(type: string, event: unknown = {}) {
      for (const l of this.listeners[type] ?? []) l(event as never);
    }
  }

  it('resolves on open, passes text messages, binary ones by their size, and close events', async () => {
    const ws = new FakeWs();
    const pending = browserSocketConnector('ws://h/jql-streams', () => ws)();
    ws.fire('open');
    const socket = await pending;
    const got: unknown[] = [];
    socket.onMessage((d) => got.push(d));
    socket.onClose((code, reason) => got.push([code, reason]));
    ws.fire('message', { data: '{"type":"pong"}' });
    ws.fire('message', { data: new ArrayBuffer(1) });
    socket.send('x');
    socket.close(1000, 'bye');
    ws.fire('close', { code: 1000, reason: 'bye' });
    expect(got).toEqual(['{"type":"pong"}', { binaryBytes: 1 }, [1000, 'bye']]);
    expect(ws.sent).toEqual(['x']);
    expect(ws.closedWith).toEqual([1000, 'bye']);
  });

  it('rejects when the socket closes before opening, without leaking the token', async () => {
    const ws = new FakeWs();
    const pending = browserSocketConnector('ws://h/jql-streams?token=secret', () => ws)();
    ws.fire('close', { code: 1006, reason: '' });
    await expect(pending).rejects.toThrow('Could not open ws://h/jql-streams?token=… (close code 1006).');
  });
});
