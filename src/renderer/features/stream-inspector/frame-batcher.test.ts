import { describe, expect, it } from 'vitest';
import { batchFrames } from './frame-batcher.ts';
import type { SocketData, StreamSocket } from './stream-socket.ts';

function fakeSocket() {
  let message: (data: SocketData) => void = () => {};
  let close: (code: number, reason: string) => void = () => {};
  const socket: StreamSocket = {
    send: () => {},
    close: () => {},
    onMessage: (l) => void (message = l),
    onClose: (l) => void (close = l),
  };
  return { socket, receive: (d: SocketData) => message(d), drop: () => close(1000, '') };
}

const event = (seq: number) => `{"type":"event","subscription":"s1","event":"created","seq":${seq},"record":{"id":${seq}}}`;

describe('batchFrames (issue 22.12)', () => {
  it('hands frames on in slices per frame, within the time budget', () => {
    const fake = fakeSocket();
    const frames: Array<() => void> = [];
    let clock = 0;
    const socket = batchFrames(fake.socket, { schedule: (run) => frames.push(run), now: () => clock, budgetMs: 8 });
    const got: SocketData[] = [];
    socket.onMessage((d) => {
      got.push(d);
      clock += 1; // each frame costs 1 ms to handle
    });
    for (let i = 1; i <= 20; i++) fake.receive(event(i));
    expect(got).toHaveLength(0);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(got).toHaveLength(8);
    frames.shift()!();
    frames.shift()!();
    expect(got).toHaveLength(20);
    expect(frames).toHaveLength(0);
  });

  it('pauses ingestion when the backlog is too long: events are skipped and counted, control frames pass', () => {
    const fake = fakeSocket();
    const frames: Array<() => void> = [];
    const skips: Array<{ skipping: boolean; skipped: number }> = [];
    const socket = batchFrames(fake.socket, { schedule: (run) => frames.push(run), now: () => 0, maxBacklogFrames: 5, onSkip: (s) => skips.push(s) });
    const got: SocketData[] = [];
    socket.onMessage((d) => got.push(d));
    for (let i = 1; i <= 10; i++) fake.receive(event(i));
    fake.receive('{"type":"error","id":"s1","error":{"code":"forbidden","message":"no"}}');
    expect(skips).toEqual([{ skipping: true, skipped: 0 }]);
    while (frames.length) frames.shift()!();
    // Six queued before the pause, the error frame, nothing else.
    expect(got).toHaveLength(7);
    expect(got.at(-1)).toContain('"type":"error"');
    expect(skips.at(-1)).toEqual({ skipping: false, skipped: 4 });
    fake.receive(event(11));
    while (frames.length) frames.shift()!();
    expect(got).toHaveLength(8);
  });

  it('drops what is queued when the socket closes', () => {
    const fake = fakeSocket();
    const frames: Array<() => void> = [];
    const socket = batchFrames(fake.socket, { schedule: (run) => frames.push(run) });
    const got: unknown[] = [];
    socket.onMessage((d) => got.push(d));
    socket.onClose((code) => got.push(code));
    fake.receive(event(1));
    fake.drop();
    while (frames.length) frames.shift()!();
    expect(got).toEqual([1000]);
  });
});
