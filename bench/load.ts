/**
 * Child processes and load for the benchmarks: each server under test runs in its own process (so it
 * has a core to itself and autocannon the other), started with a bounded wait for its ready line and
 * always stopped. Loopback only.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import autocannon, { type Request } from 'autocannon';

export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
  /** Everything the child printed so far (stdout and stderr). */
  output(): string;
}

/** Starts `node ARGS...` and waits (at most `timeoutMs`) for a stdout line matching `ready`; group 1 is the URL. */
export function startNode(args: string[], ready: RegExp | null, options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; nodeArgs?: string[] } = {}): Promise<Child> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', ...(options.nodeArgs ?? []), ...args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const printed = () => output;
  if (!ready) return Promise.resolve({ url: '', process: child, stop: () => stopChild(child), output: printed });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not start within ${options.timeoutMs ?? 60_000} ms:\n${output}`));
    }, options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      // Keep reading (a full pipe would block the child), and keep what it says.
      child.stdout?.on('data', (more: Buffer) => {
        if (output.length < 1_000_000) output += more.toString();
      });
      resolve({ url: match[1] as string, process: child, stop: () => stopChild(child), output: printed });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (output.length < 1_000_000) output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code} before it was ready:\n${output}`));
    });
  });
}

export function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface LoadResult {
  rps: number;
  /** CPU time the server process spent per request (user + system), in microseconds. */
  cpuUsPerRequest: number | null;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}

export interface LoadOptions {
  url: string;
  request: () => Request;
  durationS: number;
  connections: number;
  /** The server's process id, to measure the CPU time it spends per request. */
  pid?: number;
  /** A fixed rate (requests per second) instead of as many as the server answers. */
  rate?: number;
}

const TICKS_PER_SECOND = 100;

/** CPU time (user + system) of a process so far, in milliseconds, from /proc (Linux). */
export function cpuMs(pid: number): number | null {
  const split = cpuSplitMs(pid);
  return split === null ? null : split.user + split.system;
}

/** A process's CPU time so far in user space and in the kernel, in milliseconds, from /proc (Linux). */
export function cpuSplitMs(pid: number): { user: number; system: number } | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // After the command: state is field 3, utime 14 and stime 15 (1-based) of the whole line.
    return { user: (Number(fields[11]) * 1000) / TICKS_PER_SECOND, system: (Number(fields[12]) * 1000) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/** Runs autocannon against one URL; each request is made fresh by `request()` (random ids, offsets). */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const cpuBefore = options.pid ? cpuMs(options.pid) : null;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationS,
    ...(options.rate ? { overallRate: options.rate } : {}),
    requests: [{ setupRequest: (request) => ({ ...request, ...options.request() }) }],
  });
  const cpuAfter = options.pid ? cpuMs(options.pid) : null;
  const total = result.requests.total;
  return {
    rps: result.requests.average,
    cpuUsPerRequest: cpuBefore !== null && cpuAfter !== null && total > 0 ? ((cpuAfter - cpuBefore) * 1000) / total : null,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

/** Polls `url` until it answers (any status), at most `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** A port that was free a moment ago (for servers that cannot be told `--port 0`). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * The Node flags the `jql-console` command starts with (its `#!/usr/bin/env -S node …` line): the
 * benchmarks start the server as the command does.
 */
export const JQL_NODE_FLAGS: string[] = (/^#!\S*env -S node(.*)$/m.exec(readFileSync(new URL('../bin/jql-console.mjs', import.meta.url), 'utf8').split('\n')[0] ?? '')?.[1] ?? '')
  .split(' ')
  .filter((flag) => flag !== '');

/** `jql-console ARGS...` as the command starts (its Node flags included), as a child of the benchmark. */
export function startJqlCommand(args: string[], ready: RegExp, options: Parameters<typeof startNode>[2] = {}): Promise<Child> {
  return startNode(['bin/jql-console.mjs', ...args], ready, { ...options, nodeArgs: [...JQL_NODE_FLAGS, ...(options.nodeArgs ?? [])] });
}

/**
 * Pins processes to CPU cores with `taskset` (util-linux), when the machine has it and two cores or
 * more: each server under test on the last core, the benchmark's own process (autocannon) on the
 * others. Unpinned, the scheduler placed each server process differently, and one JQL process could
 * run 10% slower than another of the same code for its whole life; pinned, every server gets the same
 * core. Returns what undoes it (the benchmark's process back on every core), or null when not pinned.
 */
export function pinServers(pids: number[]): (() => void) | null {
  const cores = availableParallelism();
  if (cores < 2) return null;
  const taskset = (args: string[]): boolean => spawnSync('taskset', args, { stdio: 'ignore' }).status === 0;
  const last = String(cores - 1);
  if (!pids.every((pid) => taskset(['-a', '-p', '-c', last, String(pid)]))) return null;
  if (!taskset(['-a', '-p', '-c', `0-${cores - 2}`, String(process.pid)])) return null;
  return () => {
    taskset(['-a', '-p', '-c', `0-${cores - 1}`, String(process.pid)]);
  };
}
