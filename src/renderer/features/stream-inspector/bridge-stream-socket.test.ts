import { describe, expect, it, vi } from 'vitest';
import type { WsClosedEvent, WsMessageEvent } from '../../../shared/bridge.ts';
import { bridgeSocketConnector, type SocketBridge } from './bridge-stream-socket.ts';

function fakeBridge(open: () => Promise<{ socketId: string }> = async () => ({ socketId: 's1' })) {
  const messages = new Set<(m: WsMessageEvent) => void>();
  const closes = new Set<(c: WsClosedEvent) => void>();
  const bridge: SocketBridge & { wsSend: ReturnType<typeof vi.fn>; wsClose: ReturnType<typeof vi.fn>; wsOpen: ReturnType<typeof vi.fn>; wsAck: ReturnType<typeof vi.fn> } = {
    wsOpen: vi.fn(open),
    wsSend: vi.fn(async () => {}),
    wsClose: vi.fn(async () => {}),
    wsAck: vi.fn(async () => {}),
    onWsMessage: (l) => {
      messages.add(l);
      return () => messages.delete(l);
    },
    onWsClosed: (l) => {
      closes.add(l);
      return () => closes.delete(l);
    },
  };
  return { bridge, message: (m: WsMessageEvent) => messages.forEach((l) => l(m)), close: (c: WsClosedEvent) => closes.forEach((l) => l(c)), messages, closes };
}

describe('bridgeSocketConnector', () => {
  it('opens through main and relays its own socket only, both ways', async () => {
    const fake = fakeBridge();
    const socket = await bridgeSocketConnector(fake.bridge, 'conn-1', 'wss://h/jql-streams')();
    expect(fake.bridge.wsOpen).toHaveBeenCalledWith({ connectionId: 'conn-1', url: 'wss://h/jql-streams', credentials: 'connection' });
    const got: string[] = [];
    const closed: Array<[number, string]> = [];
    socket.onMessage((d) => got.push(String(d)));
    socket.onClose((code, reason) => closed.push([code, reason]));
    fake.message({ socketId: 's1', data: 'a' });
    fake.message({ socketId: 's2', data: 'not mine' });
    socket.send('{"type":"ping"}');
    expect(fake.bridge.wsSend).toHaveBeenCalledWith('s1', '{"type":"ping"}');
    fake.close({ socketId: 's2', code: 1000, reason: '' });
    fake.close({ socketId: 's1', code: 4008, reason: 'behind' });
    expect(got).toEqual(['a']);
    // What the page took is acknowledged, so main reads on.
    expect(fake.bridge.wsAck.mock.calls).toEqual([['s1', 1]]);
    expect(closed).toEqual([[4008, 'behind']]);
    expect(fake.messages.size + fake.closes.size).toBe(0);
    socket.close(1000, 'bye');
    expect(fake.bridge.wsClose).toHaveBeenCalledWith('s1', 1000, 'bye');
  });

  it('asks main to sign the socket in (never with a token from the page) while signed in, at each connect', async () => {
    const fake = fakeBridge();
    let signedIn = true;
    const connect = bridgeSocketConnector(fake.bridge, 'conn-1', 'ws://h/jql-streams', () => signedIn);
    await connect();
    signedIn = false;
    await connect();
    expect(fake.bridge.wsOpen.mock.calls).toEqual([[{ connectionId: 'conn-1', url: 'ws://h/jql-streams', credentials: 'connection' }], [{ connectionId: 'conn-1', url: 'ws://h/jql-streams', credentials: 'omit' }]]);
  });

  it('keeps a message that arrives before anyone listens', async () => {
    const fake = fakeBridge();
    fake.bridge.wsOpen.mockImplementation(async () => {
      fake.message({ socketId: 's1', data: 'early' });
      return { socketId: 's1' };
    });
    const socket = await bridgeSocketConnector(fake.bridge, 'conn-1', 'ws://h/jql-streams')();
    const got: string[] = [];
    socket.onMessage((d) => got.push(String(d)));
    expect(got).toEqual(['early']);
  });

  it("rejects with main's reason when the socket cannot open, and stops listening", async () => {
    const fake = fakeBridge(async () => Promise.reject(new Error("Error invoking remote method 'ws:open': Error: Could not open ws://h/jql-streams (close code 1006).")));
    await expect(bridgeSocketConnector(fake.bridge, 'conn-1', 'ws://h/jql-streams')()).rejects.toThrow('Could not open ws://h/jql-streams (close code 1006).');
    expect(fake.messages.size + fake.closes.size).toBe(0);
  });
});
