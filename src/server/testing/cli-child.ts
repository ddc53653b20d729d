/**
 * Runs `jql-console ARGS` as a child process, the way a user does, and reports how it ended: exit
 * code, output, wall time and the child's peak resident memory (its own `resourceUsage().maxRSS`,
 * written to standard error as its last line by a module loaded before the command).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../bin/jql-console.mjs', import.meta.url));
const PEAK_MARK = '@@peak-rss-kib=';
const REPORT_PEAK = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\n${PEAK_MARK}'+process.resourceUsage().maxRSS+'\\n'))`;

export interface CliOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  peakRssMb: number;
}

export function runCli(args: string[], options: { stdin?: string; killAfterMs?: number; env?: Record<string, string> } = {}): Promise<CliOutcome> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', REPORT_PEAK, BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(options.stdin ?? '');
  // A command that does not end on its own is killed, so a failing test still ends.
  const guard = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(guard);
      const mark = stderr.lastIndexOf(PEAK_MARK);
      const peak = mark === -1 ? Number.NaN : Number(stderr.slice(mark + PEAK_MARK.length).trim()) / 1024;
      resolve({ code, stdout, stderr: (mark === -1 ? stderr : stderr.slice(0, mark)).trim(), ms: Date.now() - started, peakRssMb: peak });
    });
  });
}
