import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeStreamServer, flush } from './fake-stream-server.ts';
import { StreamClient } from './stream-client.ts';
import { firstEventWait, silenceNote } from './stream-waiting.ts';

let clock: number;
let client: StreamClient;
beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
});
afterEach(() => {
  client?.stop();
  vi.useRealTimers();
});

describe('what the inspector says while nothing arrives (issue 31 item 6)', () => {
  it('says how long an active subscription has waited for its first event, and stops once one came', async () => {
    const server = new FakeStreamServer();
    client = new StreamClient({ connect: server.connect, now: () => clock, pingIntervalMs: 25_000, pongTimeoutMs: 10_000 });
    client.start();
    await flush();
    const id = client.subscribe({ namespace: 'hostile.Thing' });
    expect(firstEventWait(client.subscriptions()[0]!, clock)).toBeNull();
    clock = 1_000;
    server.last.push({ type: 'subscribed', id, seq: 0 });
    expect(firstEventWait(client.subscriptions()[0]!, 2_500)).toBeNull();
    expect(firstEventWait(client.subscriptions()[0]!, 13_400)).toBe('waiting for the first event for 12 s');
    clock = 14_000;
    server.last.event(id, 1);
    expect(firstEventWait(client.subscriptions()[0]!, 20_000)).toBeNull();
  });

  it('says, once a ping goes unanswered, that a message may be arriving and when the socket is closed', async () => {
    const server = new FakeStreamServer();
    client = new StreamClient({ connect: server.connect, now: () => clock, pingIntervalMs: 25_000, pongTimeoutMs: 10_000 });
    client.start();
    await flush();
    // A healthy quiet socket: the pong answers the ping, nothing is said.
    expect(silenceNote(client.silence(), 26_000)).toBeNull();
    const silence = client.silence()!;
    expect(silence).toEqual({ since: 0, pingIntervalMs: 25_000, closesAfterMs: 35_000 });
    expect(silenceNote(silence, 28_000)).toBe(
      'nothing received for 28 s, not even the answer to a ping: a large message may still be arriving (a browser sees only whole messages); the console closes the socket after 35 s without one',
    );
    clock = 30_000;
    server.last.push({ type: 'pong' });
    expect(silenceNote(client.silence(), 31_000)).toBeNull();
    client.stop();
    expect(client.silence()).toBeNull();
  });
});
