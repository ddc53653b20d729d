/**
 * Runs one documented command (console-examples.ts) in a folder and waits until its output is the
 * documented one: a command that keeps running (`serve`) is stopped once it printed what the docs
 * show; one that ends is checked when it ends. `npx jql-console` runs this checkout's CLI with the
 * project's Node, as `npx` does in the project's folder.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { outputMatches, type ConsoleCommand } from './console-examples.ts';

const TIMEOUT_MS = 30_000;
/** How long a command that printed what it should may take to end before it counts as a server. */
const GRACE_MS = 2_000;
const CLI = join(import.meta.dirname, '..', '..', 'bin', 'jql-console.mjs');

export interface CommandResult {
  ok: boolean;
  output: string;
}

export function runCommand(example: ConsoleCommand, cwd: string): Promise<CommandResult> {
  const command = example.command.replaceAll('npx jql-console', `node ${JSON.stringify(CLI)}`);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
  delete env.JQL_ADMIN;
  delete env.JQL_SECRET;
  // Its own process group, so a server it started goes with it.
  const child = spawn('bash', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const lines = () => output.replace(/\n$/, '').split('\n').filter((line, i, all) => !(all.length === 1 && line === ''));
  return new Promise((resolve) => {
    let settled = false;
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (grace) clearTimeout(grace);
      if (child.exitCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // Gone already.
        }
      }
      resolve({ ok, output });
    };
    const timer = setTimeout(() => finish(false), TIMEOUT_MS);
    let grace: ReturnType<typeof setTimeout> | null = null;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // A command that ends cleans up after its last line (`run` removes its data directory): it is
      // stopped only when it is still running a while after printing what the page shows.
      if (grace) clearTimeout(grace);
      grace = outputMatches(example.expected, lines()) ? setTimeout(() => finish(true), GRACE_MS) : null;
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', () => finish(outputMatches(example.expected, lines())));
  });
}
