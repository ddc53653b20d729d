/**
 * `npm run soak`: the server's memory over time (issue 30.8). Starts `jql-console serve` as a child
 * process on the benchmark's data, keeps a moderate mixed load on it (filtered pages, reads by id,
 * updates, creates, stream subscribers that come and go) and samples its resident memory and V8 heap
 * at fixed intervals; at the end it prints the table, the slope of the last half, and (with
 * `--snapshots`) the constructors whose object counts grew between a heap snapshot taken at half time
 * and one at the end.
 *
 * Options: `--minutes=20` (the default; the issue asks for at least 20), `--interval=30` (seconds
 * between samples), `--rate=150` (requests per second), `--snapshots` (heap snapshots side by side),
 * `--hardening` (instead: the hardening tests in their long form, as `npm run soak` ran before).
 * Loopback only; the child and the data are removed at the end.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import WebSocket from 'ws';
import { buildBenchData } from './data.ts';
import { startJqlCommand, stopChild } from './load.ts';
import { compareSnapshots, type SnapshotGrowth } from './soak-snapshots.ts';
import { lastHalfSlope, type MemorySample } from './soak-slope.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '20' },
    interval: { type: 'string', default: '30' },
    rate: { type: 'string', default: '150' },
    snapshots: { type: 'boolean', default: false },
    hardening: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});

if (values.hardening) {
  // The long form of src/server/hardening (60 s of load, more fuzzing runs, more kill -9 rounds).
  const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
  const result = spawnSync(process.execPath, [vitest, 'run', 'src/server/hardening', '--testTimeout=600000'], { stdio: 'inherit', env: { ...process.env, JQL_SOAK: '1' } });
  process.exit(result.status ?? 1);
}

const minutes = Number(values.minutes);
const intervalS = Number(values.interval);
const rate = Number(values.rate);
const ITEMS = 20_000;
const MiB = 1024 * 1024;
const t0 = performance.now();
const log = (line: string) => console.log(`[soak ${((performance.now() - t0) / 1000).toFixed(0).padStart(5)} s] ${line}`);

log(`building ${ITEMS} items ...`);
const data = await buildBenchData(ITEMS);
// The probe prints the server's own heap figures on a line of its own every interval; SIGUSR2 makes
// Node write a heap snapshot into the data folder's parent (the process's working directory).
const probe = fileURLToPath(new URL('./soak-probe.ts', import.meta.url));
const server = await startJqlCommand(['serve', '--workspace', data.workspace, '--data', data.dataDir, '--port', '0'], /listening on (http\S+)/, {
  env: { JQL_ADMIN: '', SOAK_PROBE_INTERVAL_MS: String(intervalS * 1000) },
  nodeArgs: ['--import', probe, '--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${data.dir}`],
});
const pid = server.process.pid as number;
log(`server ${server.url} (pid ${pid}), ${minutes} min at ${rate} req/s, a sample every ${intervalS} s`);

/** The last heap figures the probe printed. */
function heapNow(): { heapUsed: number; heapTotal: number; external: number } | null {
  const lines = server.output().match(/^SOAK-MEM (.*)$/gm);
  const last = lines?.at(-1);
  return last ? (JSON.parse(last.slice('SOAK-MEM '.length)) as { heapUsed: number; heapTotal: number; external: number }) : null;
}
/** Resident memory from /proc: all of it, the process's own (anonymous) and mapped files (the database's memory map). */
function rssNow(): { rss: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}

const statuses = ['open', 'pending', 'closed'];
const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)] as T;
const id = () => 1 + Math.floor(Math.random() * ITEMS);
/** The mix, by weight: mostly reads, about a tenth writes (updates and small creates). */
const MIX: Array<[number, () => unknown]> = [
  [45, () => ({ __meta__: { namespace: 'bench.Item', intent: 'retrieve', filter: { status: pick(statuses), priority__gte: 1 + Math.floor(Math.random() * 5) }, ordering: ['priority'], limit: 20, offset: Math.floor(Math.random() * 500) } })],
  [35, () => ({ __meta__: { namespace: 'bench.Item', intent: 'retrieveOne', uniqueObject: { id: id() } } })],
  [5, () => ({ __meta__: { namespace: 'bench.Item', intent: 'count', filter: { owner__team: 1 + Math.floor(Math.random() * 10) } } })],
  [5, () => ({ __meta__: { namespace: 'bench.Item', intent: 'retrieve', search: { value: pick(data.vocabulary.slice(0, 200)) }, limit: 10 } })],
  [6, () => ({ __meta__: { namespace: 'bench.Item', intent: 'update', uniqueObject: { id: id() } }, priority: 1 + Math.floor(Math.random() * 5), status: pick(statuses) })],
  [4, () => ({ __meta__: { namespace: 'bench.Note', intent: 'create' }, item: id(), text: `soak ${Date.now()}` })],
];
const WEIGHT = MIX.reduce((a, [w]) => a + w, 0);
function nextBody(): unknown {
  let x = Math.random() * WEIGHT;
  for (const [weight, make] of MIX) if ((x -= weight) < 0) return make();
  return (MIX[0] as [number, () => unknown])[1]();
}
// Every kind of request is tried once first: a soak of error answers would measure the wrong thing.
for (const [, make] of MIX) {
  const body = JSON.stringify(make());
  const res = await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (!res.ok) {
    await stopChild(server.process);
    rmSync(data.dir, { recursive: true, force: true });
    throw new Error(`${body} answered ${res.status}: ${await res.text()}`);
  }
}

// Stream subscribers that come and go: each lives a few seconds, so sockets and subscriptions are
// opened and closed all through the run.
let streaming = true;
let streamEvents = 0;
async function subscriberLoop(): Promise<void> {
  while (streaming) {
    await new Promise<void>((resolve) => {
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/jql-streams`);
      const close = setTimeout(() => socket.close(), 2000 + Math.random() * 4000);
      socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', id: 's', namespace: 'bench.Item', events: ['updated'] })));
      socket.on('message', () => streamEvents++);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(close);
        resolve();
      });
    });
  }
}
const subscribers = Array.from({ length: 5 }, subscriberLoop);

const load = autocannon({
  url: `${server.url}/jql`,
  connections: 10,
  overallRate: rate,
  duration: minutes * 60,
  requests: [{ setupRequest: (request) => ({ ...request, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(nextBody()) }) }],
});

const samples: MemorySample[] = [];
const snapshotFiles: string[] = [];
const takeSnapshot = async (): Promise<void> => {
  const before = new Set(readdirSync(data.dir));
  process.kill(pid, 'SIGUSR2');
  // Writing a snapshot stops the server for a few seconds; wait for the file to be complete.
  let size = -1;
  for (let i = 0; i < 600; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const fresh = readdirSync(data.dir).find((name) => name.endsWith('.heapsnapshot') && !before.has(name));
    if (!fresh) continue;
    // Done when its size stayed the same for a second (Node writes it in one go, then goes on).
    const now = statSync(`${data.dir}/${fresh}`).size;
    if (now > 0 && now === size) {
      snapshotFiles.push(`${data.dir}/${fresh}`);
      return;
    }
    size = now;
  }
  log('the heap snapshot did not appear within 10 minutes');
};
const sampling = (async () => {
  const total = Math.floor((minutes * 60) / intervalS);
  for (let i = 1; i <= total; i++) {
    await new Promise((resolve) => setTimeout(resolve, intervalS * 1000));
    const heap = heapNow();
    const resident = rssNow();
    const sample: MemorySample = { minute: (performance.now() - t0) / 60_000, rss: resident.rss, rssAnon: resident.anon, rssFile: resident.file, heapUsed: heap?.heapUsed ?? 0, heapTotal: heap?.heapTotal ?? 0, external: heap?.external ?? 0 };
    samples.push(sample);
    log(`RSS ${(sample.rss / MiB).toFixed(1)} MiB (own ${(sample.rssAnon / MiB).toFixed(1)}, files ${(sample.rssFile / MiB).toFixed(1)}), heap used ${(sample.heapUsed / MiB).toFixed(1)} of ${(sample.heapTotal / MiB).toFixed(1)} MiB, external ${(sample.external / MiB).toFixed(1)} MiB`);
    if (values.snapshots && i === Math.floor(total / 2)) await takeSnapshot();
  }
})();

let result: Result;
try {
  result = await load;
  await sampling;
  if (values.snapshots) await takeSnapshot();
} finally {
  streaming = false;
  await Promise.allSettled(subscribers);
  await stopChild(server.process);
}
const first = samples[0];
const last = samples.at(-1);
const start = samples[0]?.minute ?? 0;
const slope = lastHalfSlope(samples);
console.log('\n| minute | RSS (MiB) | own (MiB) | files (MiB) | heap used (MiB) | heap total (MiB) | external (MiB) |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const s of samples) console.log(`| ${(s.minute - start).toFixed(1)} | ${(s.rss / MiB).toFixed(1)} | ${(s.rssAnon / MiB).toFixed(1)} | ${(s.rssFile / MiB).toFixed(1)} | ${(s.heapUsed / MiB).toFixed(1)} | ${(s.heapTotal / MiB).toFixed(1)} | ${(s.external / MiB).toFixed(1)} |`);
const byStatus = Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => `${code}: ${count}`).join(', ');
console.log(`\nrequests: ${result.requests.total} (${byStatus}; ${result.errors} errors), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; stream events delivered: ${streamEvents}`);
if (first && last) console.log(`RSS ${(first.rss / MiB).toFixed(1)} -> ${(last.rss / MiB).toFixed(1)} MiB, heap used ${(first.heapUsed / MiB).toFixed(1)} -> ${(last.heapUsed / MiB).toFixed(1)} MiB`);
console.log(`slope of the last half (least squares): RSS ${slope.rss.toFixed(3)} MiB/min (own ${slope.rssAnon.toFixed(3)}), heap used ${slope.heapUsed.toFixed(3)} MiB/min`);
if (snapshotFiles.length === 2) {
  const growth: SnapshotGrowth[] = compareSnapshots(snapshotFiles[0] as string, snapshotFiles[1] as string).slice(0, 15);
  console.log('\nConstructors whose live objects grew between the half-time and the final heap snapshot:\n| constructor | count then | count now | bytes now |\n| --- | ---: | ---: | ---: |');
  for (const g of growth) console.log(`| ${g.name} | ${g.before} | ${g.after} | ${g.bytesAfter} |`);
}
rmSync(data.dir, { recursive: true, force: true });
