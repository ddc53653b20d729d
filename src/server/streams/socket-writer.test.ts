// The writer's count of frames a socket has not written out, on a real TCP socket whose reader stops:
// the connection closes a slow subscriber (4008) and paces a replay by it, so it must grow while the
// peer does not read and come back to 0, with a wake-up, once the peer catches up.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { textFrame } from './frames.ts';
import { FrameWriter } from './socket-writer.ts';

const OPEN = 1;
const fakeWebSocket = (): WebSocket => ({ OPEN, readyState: OPEN, extensions: '' }) as unknown as WebSocket;

let server: Server | null = null;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  const closing = server;
  server = null;
  if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
});

/** A connected pair on loopback: the server's end (what the writer writes to) and the client's. */
async function socketPair(): Promise<{ raw: Socket; peer: Socket }> {
  let accept: (socket: Socket) => void = () => undefined;
  const accepted = new Promise<Socket>((resolve) => (accept = resolve));
  const listening = createServer(accept);
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const peer = connect((listening.address() as { port: number }).port, '127.0.0.1');
  const raw = await accepted;
  sockets.push(raw, peer);
  return { raw, peer };
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('FrameWriter', () => {
  it('counts the frames a socket holds while its peer reads nothing, and wakes its owner once they all left', async () => {
    const { raw, peer } = await socketPair();
    peer.pause();
    let wakes = 0;
    const writer = new FrameWriter(fakeWebSocket(), raw, () => (wakes += 1));
    const big = 'x'.repeat(256 * 1024);
    const frames = Array.from({ length: 40 }, (_, i) => textFrame(JSON.stringify({ i, big })));
    for (const frame of frames) {
      writer.write(frame);
      // Handed over and not written yet: it counts.
      expect(writer.outstanding).toBeGreaterThanOrEqual(1);
      await turn();
    }
    // 10 MB to a peer that reads nothing: the kernel's buffers take a part, the socket holds the rest.
    const held = writer.outstanding;
    expect(raw.writableLength).toBeGreaterThan(0);
    expect(held).toBeGreaterThan(1);
    expect(held).toBeLessThanOrEqual(frames.length);
    // The frames held are the last ones, whole: together at least the bytes the socket holds.
    const heldBytes = frames.slice(frames.length - held).reduce((n, frame) => n + frame.wire.length, 0);
    expect(heldBytes).toBeGreaterThanOrEqual(raw.writableLength);
    expect(heldBytes - frames[frames.length - held]!.wire.length).toBeLessThan(raw.writableLength);
    const wakesBefore = wakes;

    const received: Buffer[] = [];
    let bytes = 0;
    peer.on('data', (chunk: Buffer) => {
      received.push(chunk);
      bytes += chunk.length;
    });
    peer.resume();
    const expected = Buffer.concat(frames.map((frame) => frame.wire));
    const deadline = Date.now() + 10_000;
    while (bytes < expected.length && Date.now() < deadline) await turn();
    await turn();

    expect(Buffer.concat(received).equals(expected)).toBe(true);
    expect(writer.outstanding).toBe(0);
    expect(wakes).toBeGreaterThan(wakesBefore);
  });

  it('counts nothing and wakes its owner when a socket holding frames is destroyed, and writes nothing more to it', async () => {
    const { raw, peer } = await socketPair();
    peer.pause();
    let wakes = 0;
    const writer = new FrameWriter(fakeWebSocket(), raw, () => (wakes += 1));
    const frame = textFrame(JSON.stringify({ big: 'x'.repeat(1024 * 1024) }));
    for (let i = 0; i < 16 && raw.writableLength === 0; i++) {
      writer.write(frame);
      await turn();
    }
    expect(raw.writableLength).toBeGreaterThan(0);
    expect(writer.outstanding).toBeGreaterThan(0);
    const wakesBefore = wakes;
    raw.destroy();
    await turn();
    expect(writer.outstanding).toBe(0);
    expect(wakes).toBeGreaterThan(wakesBefore);
    // Frames handed over after that are dropped, not written to the destroyed socket (which would throw or emit 'error').
    writer.write(frame);
    writer.flush();
    expect(writer.outstanding).toBe(0);
  });

  it('counts the frames it holds for the round, and none once the kernel took them', async () => {
    const { raw, peer } = await socketPair();
    let wakes = 0;
    const writer = new FrameWriter(fakeWebSocket(), raw, () => (wakes += 1));
    const received: Buffer[] = [];
    peer.on('data', (chunk: Buffer) => received.push(chunk));
    const frame = textFrame('{"type":"event"}');
    writer.write(frame);
    writer.write(frame);
    expect(writer.outstanding).toBe(2);
    writer.flush();
    expect(writer.outstanding).toBe(0);
    expect(wakes).toBe(1);
    await turn();
    expect(Buffer.concat(received).equals(Buffer.concat([frame.wire, frame.wire]))).toBe(true);
  });
});
