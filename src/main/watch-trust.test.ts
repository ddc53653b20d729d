// The desktop app's watcher asks the trust question again before it runs a controllers module whose
// content changed; a no keeps the running workspace and the banner (WatchStatus) says why.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { watchWorkspace, WatchStatus, type Workspace } from '../server/index.ts';
import { startServer, tempDir, writeWorkspace } from '../server/testing/fixture.ts';
import { memoryTextFile } from './text-file.ts';
import { NOT_TRUSTED, trustGate } from './watch-trust.ts';
import { WorkspaceTrust } from './workspace-trust.ts';

const closing: Array<() => unknown> = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

const version = (n: number) => `export class Info {\n  static permissions = { version: ['anyone'] };\n  on_version() { return { payload: { version: ${n} } }; }\n}\n`;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`no ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('trustGate', () => {
  it('keeps the running workspace when a changed controller is not trusted, and applies it once it is', async () => {
    const dir = tempDir('jql-desktop-watch-');
    const module = join(dir, 'controllers.mjs');
    writeFileSync(module, version(1));
    const file = writeWorkspace({ name: 'code', apps: { code: { controllers: './controllers.mjs', models: {} } } }, dir);
    const dataDir = join(dir, 'data');
    const server = await startServer({ workspace: file, dataDir });
    closing.push(() => server.close());

    let answer = true;
    const ask = vi.fn(async () => answer);
    const trust = new WorkspaceTrust({ file: memoryTextFile(), codeFiles: () => [module], ask });
    // Trusted at open, as main asks before it starts the server.
    await expect(trust.allows(file)).resolves.toBe(true);
    const status = new WatchStatus();
    const restart = vi.fn(async (_ws: Workspace) => undefined);
    const lines: string[] = [];
    const watcher = watchWorkspace({ file, dataDir, current: server.state.ws, status, allowDestructive: false, apply: restart, mayRun: trustGate(trust, file), out: (l) => lines.push(l), err: (l) => lines.push(l), debounceMs: 20 });
    closing.push(() => watcher.close());

    // The module changes and the user says no: nothing starts, the running workspace stays.
    answer = false;
    writeFileSync(module, version(2));
    await until(() => ask.mock.calls.length === 2, 'the second question');
    await watcher.idle();
    expect(ask).toHaveBeenLastCalledWith(file, [module]);
    expect(restart).not.toHaveBeenCalled();
    expect(status.snapshot().error).toBe(NOT_TRUSTED);

    // Saved again and trusted: applied through the same restart callback.
    answer = true;
    writeFileSync(module, version(3));
    await until(() => restart.mock.calls.length === 1, 'the restart');
    await watcher.idle();
    expect(status.snapshot().error).toBeNull();
    // The same content again asks nothing more.
    expect(ask).toHaveBeenCalledTimes(3);
  }, 30_000);
});
