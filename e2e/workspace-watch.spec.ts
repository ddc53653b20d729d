/**
 * The console on a running `serve --watch` (issue 33, docs/workspace.md "Changing a workspace while
 * it runs"): a field added to the workspace file is offered by completion within seconds, without a
 * reload; a broken save shows its error in a banner on the connection while the server keeps answering
 * with the workspace it runs; a good save takes the banner away.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures/test.ts';
import { startServer, type SpawnedServer } from './fixtures/serve.ts';

const NOTE = { fields: { title: { type: 'string', required: true } }, permissions: { retrieve: ['anyone'], create: ['anyone'] } };
const workspace = (fields: Record<string, unknown>) => ({ name: 'notes', apps: { notes: { models: { Note: { ...NOTE, fields: { ...NOTE.fields, ...fields } } } } } });
const WATCHER = { username: 'watcher', password: 'watch-secret-1' };
const RETRIEVE = { __meta__: { namespace: 'notes.Note', intent: 'retrieve', filter: { title: 'x' } } };

test('completion follows a saved workspace, and a broken save shows a banner while the server keeps answering', async ({ app, page, baseURL }) => {
  test.setTimeout(90_000);
  const dir = mkdtempSync(join(tmpdir(), 'jql-e2e-watch-'));
  const file = join(dir, 'jql.workspace.json');
  writeFileSync(file, JSON.stringify(workspace({}), null, 2));
  let server: SpawnedServer | null = null;
  try {
    server = await startServer({ corsOrigin: new URL(baseURL!).origin, admin: `${WATCHER.username}:${WATCHER.password}`, watch: true, workspace: file });
    // A sign-in is a token in the data folder: it outlives each restart the watcher makes.
    await app.addConnection('Watched', server.url, WATCHER, { kind: 'development' });
    await app.showView('Query');
    await app.connectionSelect.selectOption({ label: 'Watched' });
    // Null while the watcher restarts the server on the new workspace.
    const digest = async () => ((await (await fetch(`${server?.url}/healthz`)).json()) as { workspace: { digest: string } }).workspace.digest;
    const changed = async () => ((await digest().catch(() => before)) !== before);
    const before = await digest();

    // A field added to the file: once the server runs it, completion offers it, with no reload.
    writeFileSync(file, JSON.stringify(workspace({ pinned: { type: 'boolean', default: false } }), null, 2));
    await expect.poll(changed, { timeout: 15_000 }).toBe(true);
    await expect(async () => {
      await app.setQuery(RETRIEVE);
      await app.caretAfter('"filter": {');
      await page.keyboard.type('"pinn');
      await expect(app.suggestion('pinned')).toBeVisible({ timeout: 2_000 });
      // The console polls a watching server every second; the rest is room for a machine under load.
    }).toPass({ timeout: 15_000 });
    await page.keyboard.press('Escape');

    // A broken save: a banner on the connection with the server's words, and the old workspace still answers.
    const banner = app.connection('Watched').getByRole('alert');
    await expect(banner).toHaveCount(0);
    writeFileSync(file, '{\n  "apps": {\n    "notes": \n');
    await expect(banner).toContainText('The last save of the workspace file was not applied.', { timeout: 10_000 });
    await expect(banner).toContainText('Invalid workspace jql.workspace.json: not valid JSON');
    // The server names the file by its name only (the console is told no folder of this machine).
    await expect(banner).not.toContainText(dir);
    await app.runOn('Watched', { __meta__: { namespace: 'notes.Note', intent: 'create' }, title: 'still here', pinned: true }, /^20\d/);

    // A good save again: the banner goes.
    writeFileSync(file, JSON.stringify(workspace({ pinned: { type: 'boolean', default: false } }), null, 2));
    await expect(banner).toHaveCount(0, { timeout: 10_000 });
    await expect(app.connectionUser('Watched')).toHaveText(WATCHER.username);
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
