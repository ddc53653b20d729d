/**
 * A worker thread of the streams benchmark: opens its share of the subscribers and records each
 * event's latency (now − the `sent` time the publisher put in the record), so that parsing a million
 * messages is spread over threads instead of queueing in one. Each socket checks its sequence
 * numbers: one not above the last it got is a duplicate (or out of order); what never came is lost.
 * Loopback only; bounded waits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, count, capacity } = workerData as { url: string; count: number; capacity: number };
const now = (): number => performance.timeOrigin + performance.now();
const latencies = new Float64Array(capacity);
let received = 0;
let duplicated = 0;
let closedTooSlow = 0;
const sockets: WebSocket[] = [];
/** Per socket: the last `seq` it got, and how many events came in order (each above the one before). */
const lastSeq: number[] = [];
const inOrder: number[] = [];

const numberAfter = (text: string, key: string): number => {
  const at = text.indexOf(key);
  return at === -1 ? NaN : Number.parseFloat(text.slice(at + key.length));
};

function subscribe(): Promise<void> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/jql-streams`);
  const index = sockets.push(socket) - 1;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('subscribe timed out')), 30_000);
    socket.on('error', reject);
    socket.on('close', (code) => code === 4008 && closedTooSlow++);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', id: 's', namespace: 'live.Tick', events: ['created'] })));
    socket.on('message', (raw) => {
      const text = String(raw);
      // Only `seq` and `sent` are needed: cheaper than parsing each whole message.
      if (text.startsWith('{"type":"event"')) {
        const seq = numberAfter(text, '"seq":');
        if (seq > (lastSeq[index] as number)) {
          lastSeq[index] = seq;
          inOrder[index] = (inOrder[index] as number) + 1;
        } else {
          duplicated++;
        }
        if (received < capacity) latencies[received] = now() - numberAfter(text, '"sent":');
        received++;
        return;
      }
      const message = JSON.parse(text) as { type: string; seq: number };
      if (message.type === 'subscribed') {
        lastSeq[index] = message.seq;
        inOrder[index] = 0;
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, subscribe));
parentPort?.postMessage({ type: 'ready' });
parentPort?.on('message', async (message: { type: 'expect'; events: number }) => {
  const total = message.events * count;
  const deadline = Date.now() + 30_000;
  while (received < total && Date.now() < deadline && closedTooSlow === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  // Every socket should have had each event published, once and in order; short of that, one was lost.
  let lost = 0;
  for (let i = 0; i < sockets.length; i++) lost += Math.max(0, message.events - (inOrder[i] as number));
  for (const socket of sockets) socket.terminate();
  const copy = latencies.slice(0, Math.min(received, capacity));
  parentPort?.postMessage({ type: 'result', received, duplicated, lost, closedTooSlow, latencies: copy }, [copy.buffer]);
});
