// Load: concurrent clients doing mixed reads and writes while subscribers follow the writes over
// /jql-streams, for a few seconds in `npm test` and 60 s under `npm run soak -- --hardening`. Zero errors, every write
// delivered to every subscriber, and the p99 latency reported.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { start, type RunningServer } from '../index.ts';
import { LIBRARY_WORKSPACE, tempDir, writeWorkspace } from '../testing/fixture.ts';
import { SOAK } from './harness.ts';

const SECONDS = SOAK ? 60 : 3;
const CLIENTS = 8;
const SUBSCRIBERS = 5;
const dataDir = tempDir('jql-load-');
let server: RunningServer;
beforeAll(async () => {
  server = await start({ workspace: writeWorkspace(LIBRARY_WORKSPACE), dataDir, port: 0, env: {} });
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

function subscriber(): Promise<{ socket: WebSocket; events: () => number }> {
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/jql-streams`);
  let events = 0;
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', id: 'b', namespace: 'lib.Book', events: ['created', 'updated'] })));
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.type === 'subscribed') resolve({ socket, events: () => events });
      else if (message.type === 'event') events++;
    });
  });
}

describe('load', () => {
  it(`serves ${CLIENTS} clients of mixed reads and writes for ${SECONDS} s with zero errors`, { timeout: (SECONDS + 30) * 1000 }, async () => {
    const subs = await Promise.all(Array.from({ length: SUBSCRIBERS }, subscriber));
    const latencies: number[] = [];
    const failures: string[] = [];
    let writes = 0;
    const deadline = Date.now() + SECONDS * 1000;
    const client = async (k: number) => {
      for (let i = 0; Date.now() < deadline && i < 1_000_000; i++) {
        const roll = (i * 7 + k) % 10;
        const body =
          roll < 6
            ? { __meta__: { namespace: 'lib.Book', intent: 'retrieve', filter: { pages__gte: i % 300 }, ordering: ['-pages'], limit: 10, search: { value: roll < 2 ? 'boo' : '' } } }
            : roll < 8
              ? { __meta__: { namespace: 'lib.Book', intent: 'create', return: { id: null } }, title: `book ${k}-${i}`, pages: 1 + (i % 400) }
              : roll < 9
                ? { __meta__: { namespace: 'lib.Book', intent: 'update', uniqueObject: { id: 1 } }, pages: 1 + (i % 500) }
                : { __meta__: { namespace: 'lib.Book', intent: 'count', filter: { title__icontains: 'book' } } };
        if (roll === 8 && writes === 0) continue;
        const started = performance.now();
        const res = await post(body);
        latencies.push(performance.now() - started);
        if (res.status !== 200) failures.push(`${res.status} ${JSON.stringify(res.body.__errors__)}`);
        else if (roll >= 6 && roll < 9) writes++;
      }
    };
    await post({ __meta__: { namespace: 'lib.Book', intent: 'create' }, title: 'first book', pages: 10 });
    writes++;
    await Promise.all(Array.from({ length: CLIENTS }, (_, k) => client(k)));
    expect(failures.slice(0, 5)).toEqual([]);
    const until = Date.now() + 10_000;
    while (subs.some((s) => s.events() < writes) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const s of subs) {
      expect(s.events()).toBe(writes);
      s.socket.terminate();
    }
    latencies.sort((x, y) => x - y);
    const p = (q: number) => (latencies[Math.floor(q * (latencies.length - 1))] as number).toFixed(2);
    console.log(`load: ${latencies.length} requests in ${SECONDS} s by ${CLIENTS} clients (${writes} writes followed by ${SUBSCRIBERS} subscribers): p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${p(1)} ms, 0 errors`);
  });
});
