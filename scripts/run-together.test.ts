/**
 * scripts/run-together.mjs, which starts `npm test` with the typechecks and the lint at once: the
 * scripts really run at the same time, every one runs to its end even when another fails, the run
 * fails when any fails, and each script's output comes out whole.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const RUNNER = join(import.meta.dirname, 'run-together.mjs');

/** A script that writes `<name>.started`, then waits (up to 15 s) for `<other>.started` before printing its lines. */
function waitsFor(name: string, other: string, exitCode = 0): string {
  const code = `const fs=require('fs');fs.writeFileSync('${name}.started','');const end=Date.now()+15000;const poll=()=>{if(fs.existsSync('${other}.started')){console.log('${name} one');console.log('${name} two');process.exit(${exitCode})}if(Date.now()>end){console.log('${name} never saw ${other}');process.exit(9)}setTimeout(poll,20)};poll()`;
  return `node -e "${code}"`;
}

function runTogether(cwd: string, names: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [RUNNER, ...names], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function project(scripts: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'jql-run-together-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'run-together-check', private: true, scripts }));
  return dir;
}

describe('run-together', () => {
  it('runs the scripts at the same time and prints each one whole, in the order given', async () => {
    // Each waits for the other to have started: run one after the other, the first would never see it.
    const cwd = project({ left: waitsFor('left', 'right'), right: waitsFor('right', 'left') });
    const { code, stdout } = await runTogether(cwd, ['left', 'right']);
    expect(stdout).not.toContain('never saw');
    expect(code).toBe(0);
    expect(stdout).toMatch(/> npm run left\nleft one\nleft two\n\n> npm run right\nright one\nright two\n/);
    expect(stdout).toMatch(/left, right: passed in \d+ s/);
  }, 30_000);

  it('fails when one script fails, after the others ran to their end, and names the failure', async () => {
    const cwd = project({ fails: waitsFor('fails', 'passes', 3), passes: waitsFor('passes', 'fails') });
    const { code, stdout } = await runTogether(cwd, ['fails', 'passes']);
    expect(code).toBe(1);
    expect(stdout).toContain('> npm run fails (exit code 3)\nfails one\nfails two\n');
    expect(stdout).toContain('> npm run passes\npasses one\npasses two\n');
    expect(stdout).toMatch(/fails, passes: 1 of 2 failed/);
  }, 30_000);

  it('refuses to run nothing', async () => {
    const cwd = project({});
    const { code } = await runTogether(cwd, []);
    expect(code).toBe(2);
  });
});
