import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeStreamServer, flush } from './fake-stream-server.ts';
import { withStreamAuth } from './stream-auth.ts';
import { StreamClient, type StreamNotice } from './stream-client.ts';

afterEach(() => vi.useRealTimers());

describe('withStreamAuth', () => {
  it('sends the token as the first message and hands over the socket once the server says authenticated', async () => {
    const server = new FakeStreamServer();
    const connecting = withStreamAuth(server.connect, () => 'tok-1')();
    await flush();
    expect(server.last.sent).toEqual([{ type: 'auth', token: 'tok-1' }]);
    let ready = false;
    void connecting.then(() => (ready = true));
    await flush();
    expect(ready).toBe(false);
    server.last.push({ type: 'authenticated', user: { id: 1, username: 'admin' } });
    const socket = await connecting;
    const seen: string[] = [];
    socket.onMessage((d) => seen.push(String(d)));
    server.last.push({ type: 'pong' });
    expect(seen.map((d) => JSON.parse(d).type)).toEqual(['pong']);
  });

  it('sends nothing without a token', async () => {
    const server = new FakeStreamServer();
    await withStreamAuth(server.connect, () => null)();
    expect(server.last.sent).toEqual([]);
  });

  it('passes a refused token on to the client, which reports it and keeps the socket', async () => {
    const server = new FakeStreamServer();
    const client = new StreamClient({ connect: withStreamAuth(server.connect, () => 'expired') });
    const notices: StreamNotice[] = [];
    client.on((n) => notices.push(n));
    client.start();
    await flush();
    server.last.push({ type: 'error', id: null, error: { code: 'unauthenticated', message: 'The token has expired' } });
    await vi.waitFor(() => expect(client.state).toBe('open'));
    await flush();
    expect(notices).toContainEqual({ type: 'error', subscription: null, error: { code: 'unauthenticated', message: 'The token has expired' } });
    expect(server.last.closed).toBeNull();
    client.stop();
  });

  it('gives up on a server that never answers, and on a socket closed before the answer', async () => {
    vi.useFakeTimers();
    const server = new FakeStreamServer();
    const silent = withStreamAuth(server.connect, () => 't', 5000)();
    const failed = expect(silent).rejects.toThrow('did not answer the stream sign-in within 5 s');
    await vi.advanceTimersByTimeAsync(5000);
    await failed;
    expect(server.last.closed).toMatchObject({ code: 1000 });

    const dropped = withStreamAuth(server.connect, () => 't')();
    await flush();
    server.last.drop(1011, 'boom');
    await expect(dropped).rejects.toThrow('closed before signing in (close code 1011)');
  });
});
