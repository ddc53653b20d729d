/**
 * vitest globalSetup: the run gets a temp folder of its own, handed to the test workers and every
 * process they start through TMPDIR (TMP and TEMP on Windows), and teardown fails the run when a test
 * left anything in it. Counting in a folder of the run's own, not the system one, sees exactly what
 * this run made, whatever other runs on the machine do meanwhile.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder, inside the run's temp folder, of the stripped TypeScript the children share. */
export const STRIPPED_TYPESCRIPT_FOLDER = 'jql-stripped-typescript';

const TEMP_VARIABLES = ['TMPDIR', 'TMP', 'TEMP'] as const;

/**
 * Not a test's leftover: Node's own code cache (module.enableCompileCache, used by the toolchain) and
 * the stripped TypeScript the run's child processes share (scripts/test-child-node.ts).
 */
const TOOL_ENTRIES = new Set(['node-compile-cache', STRIPPED_TYPESCRIPT_FOLDER]);

export default function setup(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'jql-vitest-run-'));
  const previous = TEMP_VARIABLES.map((name) => [name, process.env[name]] as const);
  for (const name of TEMP_VARIABLES) process.env[name] = folder;
  return () => {
    for (const [name, value] of previous) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    const left = leftovers(folder);
    rmSync(folder, { recursive: true, force: true });
    if (left.length > 0) {
      throw new Error(`Tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder (${left.join(', ')}): every test removes what it creates.`);
    }
  };
}

export function leftovers(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => !TOOL_ENTRIES.has(name))
    .sort();
}
