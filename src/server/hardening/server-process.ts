/**
 * Runs `jql-console serve` as a child process on a given data directory (port 0), for the tests that
 * kill it with SIGKILL and start it again on the same data, or measure its resident memory alone.
 * Loopback only; every wait is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../bin/jql-console.mjs', import.meta.url));

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  kill(): Promise<void>;
}

/** `args`: more options for `serve` (`--request-timeout 2`). */
export function serve(workspace: string, dataDir: string, timeoutMs = 20_000, args: readonly string[] = []): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', BIN, 'serve', '--workspace', workspace, '--data', dataDir, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, JQL_ADMIN: '' },
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void kill();
      reject(new Error(`serve did not start in ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      const match = /listening on (http\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1] as string, child, kill });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += String(chunk)));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${output}`));
    });
  });
}

/** Peak and current resident memory of a process, from /proc: VmHWM is the peak since it started. */
export function residentMemory(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { peak: kb('VmHWM'), now: kb('VmRSS') };
}
