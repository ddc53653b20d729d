// `jql-console run --embedded` stopped by SIGTERM (a CI runner's timeout) or SIGINT (Ctrl+C) while a
// request is in flight removes its temporary data directory too, and exits as a stopped command
// does (128 + the signal). A real child process: the default of those signals skips every `finally`.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeManifest, serializeRequestFile } from '../../shared/collections/format.ts';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';

const root = join(import.meta.dirname, '..', '..', '..');

/** A workspace whose one controller intent marks that it started, then waits far longer than any test. */
function slowWorkspace(): { workspace: string; started: string } {
  const dir = tempDir('jql-run-stop-ws-');
  const workspace = writeWorkspace({ name: 'slow', apps: { slow: { controllers: './slow.mjs', models: {} } } }, dir);
  const started = join(dir, 'started');
  writeFileSync(
    join(dir, 'slow.mjs'),
    `import { writeFileSync } from 'node:fs';
    export class Waiter {
      static permissions = { wait: ['anyone'] };
      async on_wait() {
        writeFileSync(${JSON.stringify(started)}, 'yes');
        await new Promise((resolve) => setTimeout(resolve, 60_000));
        return { payload: null };
      }
    }`,
  );
  return { workspace, started };
}

function slowCollection(): string {
  const dir = tempDir('jql-run-stop-collection-');
  writeFileSync(join(dir, 'jql-collection.json'), serializeManifest({ name: 'Slow', format: 1 }));
  writeFileSync(join(dir, '01-wait.jql.json'), serializeRequestFile({ document: JSON.stringify({ __meta__: { namespace: 'slow.Waiter', intent: 'wait', schema: 'controller' } }), options: {}, assertions: [], captures: [], tags: [] }));
  return dir;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('jql-console run stopped by a signal', () => {
  for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
    it(`removes the embedded server's data directory on ${signal} and exits ${code}`, async () => {
      const { workspace, started } = slowWorkspace();
      // The child's temporary folder is this test's, so what it leaves there is seen exactly.
      const tmp = tempDir('jql-run-stop-tmp-');
      mkdirSync(tmp, { recursive: true });
      const child = spawn(process.execPath, [join(root, 'bin', 'jql-console.mjs'), 'run', slowCollection(), '--embedded', workspace], {
        cwd: root,
        env: { ...process.env, TMPDIR: tmp, TEMP: tmp, TMP: tmp },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (c, s) => resolve({ code: c, signal: s })));
      try {
        await until(() => existsSync(started), 'the request to start');
        expect(readdirSync(tmp).filter((name) => name.startsWith('jql-run-'))).toHaveLength(1);
        child.kill(signal);
        expect(await exited).toEqual({ code, signal: null });
        expect(readdirSync(tmp)).toEqual([]);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    }, 60_000);
  }
});
