/**
 * A worker thread of the streams benchmark: opens its share of the subscribers and records each
 * event's latency (now − the `sent` time the publisher put in the record), so that parsing a million
 * messages is spread over threads instead of queueing in one. Loopback only; bounded waits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, count, capacity } = workerData as { url: string; count: number; capacity: number };
const now = (): number => performance.timeOrigin + performance.now();
const latencies = new Float64Array(capacity);
let received = 0;
let closedTooSlow = 0;
const sockets: WebSocket[] = [];

function subscribe(): Promise<void> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/jql-streams`);
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('subscribe timed out')), 30_000);
    socket.on('error', reject);
    socket.on('close', (code) => code === 4008 && closedTooSlow++);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', id: 's', namespace: 'live.Tick', events: ['created'] })));
    socket.on('message', (raw) => {
      const text = String(raw);
      // Only the `sent` number is needed: cheaper than parsing each whole message.
      const at = text.indexOf('"sent":');
      if (at !== -1 && text.startsWith('{"type":"event"')) {
        if (received < capacity) latencies[received++] = now() - Number.parseFloat(text.slice(at + 7));
        return;
      }
      if (JSON.parse(text).type === 'subscribed') {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, subscribe));
parentPort?.postMessage({ type: 'ready' });
parentPort?.on('message', async (message: { type: 'expect'; total: number }) => {
  const deadline = Date.now() + 30_000;
  while (received < message.total && Date.now() < deadline && closedTooSlow === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  for (const socket of sockets) socket.terminate();
  const copy = latencies.slice(0, received);
  parentPort?.postMessage({ type: 'result', received, closedTooSlow, latencies: copy }, [copy.buffer]);
});
