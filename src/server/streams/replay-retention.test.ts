// A replay from `since` with a small retained log (docs/protocol.md "Streams"): writes committed while the replay
// waits for a slow socket prune the log, but never below the replay's cursor, so it delivers every
// event with no hole; and when events it still needed are gone anyway, it says so (close 4008) rather
// than continue past the hole. The socket is a stand-in whose writes complete only when the test says,
// so the replay stops partway through on every machine (a real one depends on the kernel's buffers).
import { rmSync } from 'node:fs';
import type { WebSocket } from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLOSE_TOO_FAR_BEHIND } from '../../shared/streams.ts';
import { untracked } from '../db/sql-session.ts';
import { runRequest } from '../dispatch/run-request.ts';
import { createState, type Runtime } from '../state.ts';
import { tempDir } from '../testing/fixture.ts';
import { item, writeStreamsWorkspace } from '../testing/streams-workspace.ts';
import { StreamConnection } from './connection.ts';

const KEEP = 50;

/** Records what the server sends; while `held`, a send's completion waits for `release()`. */
class HeldSocket {
  readonly OPEN = 1;
  readyState = 1;
  readonly sent: any[] = [];
  closedWith: { code: number; reason: string } | null = null;
  held = false;
  private waiting: Array<() => void> = [];

  send(data: string, done: () => void): void {
    this.sent.push(JSON.parse(data));
    if (this.held) this.waiting.push(done);
    else setImmediate(done);
  }

  release(): void {
    this.held = false;
    for (const done of this.waiting.splice(0)) setImmediate(done);
  }

  close(code: number, reason: string): void {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }

  ping(): void {}
  terminate(): void {}

  events(): any[] {
    return this.sent.filter((message) => message.type === 'event');
  }
}

const seqs = (events: any[]) => events.map((event) => event.seq as number);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

let dataDir: string;
let runtime: Runtime;
beforeEach(async () => {
  dataDir = tempDir('jql-replay-');
  runtime = await createState({ workspace: writeStreamsWorkspace({ maxStreamEvents: KEEP }), dataDir, env: {} });
  for (let i = 0; i < KEEP; i++) await create(`old-${i}`);
});
afterEach(() => {
  runtime.state.db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function create(name: string): Promise<void> {
  const answer = await runRequest(runtime.state, { body: item('create', { name }), infoLevel: 0, shape: 'standard', credentials: {} }, (error) => {
    throw error;
  });
  expect(answer.status).toBe(200);
}

/** A subscriber replaying from the start of the log, stopped after its first batch. */
async function stalledReplay(): Promise<HeldSocket> {
  const socket = new HeldSocket();
  const { state, hub, views } = runtime;
  // maxBehind 20: batches of 10, and the replay waits for the socket when more than 10 are unwritten.
  const connection = new StreamConnection(socket as unknown as WebSocket, state, hub, async () => ({ user: null }), {
    maxBehind: 20,
    log: (error) => {
      throw error;
    },
    identifyToken: async () => ({ user: null }),
    views,
  });
  socket.held = true;
  connection.receive(JSON.stringify({ type: 'subscribe', id: 'r', namespace: 'shop.Item', since: 0, fields: { name: null } }));
  await expect.poll(() => socket.events().length).toBe(10);
  expect(socket.sent[0]).toEqual({ type: 'subscribed', id: 'r', seq: KEEP });
  return socket;
}

describe('a replay while the log is pruned', () => {
  it('delivers every event once, in order, though writes during the replay prune the retained log', async () => {
    const socket = await stalledReplay();
    // Each of these commits prunes the log to its last 50 events, far past where the replay stands.
    for (let i = 0; i < 60; i++) await create(`new-${i}`);
    expect(socket.events()).toHaveLength(10);
    socket.release();
    await expect.poll(() => socket.events().length).toBe(KEEP + 60);
    expect(seqs(socket.events())).toEqual(range(1, KEEP + 60));
    expect(socket.events().slice(KEEP).map((event) => event.record.name)).toEqual(range(0, 59).map((i) => `new-${i}`));
    expect(socket.closedWith).toBeNull();
    // The replay is done and the pin gone: the next commit prunes to the retained window again.
    await create('after');
    expect(seqs(socket.events()).at(-1)).toBe(KEEP + 61);
    const oldest = runtime.state.db.read((statements) => untracked(statements).get('SELECT min(seq) AS seq FROM jql_events')?.seq);
    expect(oldest).toBe(61 + 1);
  });

  it('closes with 4008 after a gap-free prefix when events the replay still needs are gone', async () => {
    const socket = await stalledReplay();
    // Events lost in spite of the pin (a restored file, another tool): the replay must not skip them.
    untracked(runtime.state.db.committedWriter()).run('DELETE FROM jql_events WHERE seq <= 40');
    socket.release();
    await expect.poll(() => socket.closedWith).not.toBeNull();
    expect(socket.closedWith).toMatchObject({ code: CLOSE_TOO_FAR_BEHIND, reason: expect.stringMatching(/since/) });
    expect(seqs(socket.events())).toEqual(range(1, 10));
  });
});
