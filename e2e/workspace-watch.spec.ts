/**
 * The console on a running `serve --watch` (issue 33, docs/workspace.md "Changing a workspace while
 * it runs"): a field added to the workspace file is applied in place, so a stream subscription open in
 * the Streams view stays open and shows the next event, and completion offers the field within about
 * a second of the server running it, without a reload; a broken save shows its error in a banner on
 * the connection while the server keeps answering with the workspace it runs; a good save takes the
 * banner away.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures/test.ts';
import { startServer, type SpawnedServer } from './fixtures/serve.ts';
import { StreamsPage } from './pages/streams-page.ts';

const NOTE = { fields: { title: { type: 'string', required: true } }, permissions: { retrieve: ['anyone'], create: ['anyone'] } };
const workspace = (fields: Record<string, unknown>) => ({ name: 'notes', apps: { notes: { models: { Note: { ...NOTE, fields: { ...NOTE.fields, ...fields } } } } } });
const WATCHER = { username: 'watcher', password: 'watch-secret-1' };
const RETRIEVE = { __meta__: { namespace: 'notes.Note', intent: 'retrieve', filter: { title: 'x' } } };

test('a saved field reaches completion while a stream stays open, and a broken save shows a banner while the server keeps answering', async ({ app, page, baseURL }) => {
  test.setTimeout(90_000);
  const dir = mkdtempSync(join(tmpdir(), 'jql-e2e-watch-'));
  const file = join(dir, 'jql.workspace.json');
  writeFileSync(file, JSON.stringify(workspace({}), null, 2));
  let server: SpawnedServer | null = null;
  try {
    server = await startServer({ corsOrigin: new URL(baseURL!).origin, admin: `${WATCHER.username}:${WATCHER.password}`, watch: true, workspace: file });
    await app.addConnection('Watched', server.url, WATCHER, { kind: 'development' });
    // A subscription open before the save: an additive change is applied in place, so it stays open.
    const streams = new StreamsPage(page);
    await app.showView('Streams');
    await streams.connectionPicker.selectOption({ label: 'Watched' });
    await expect(streams.connectionState).toContainText('Watched: open');
    await streams.namespace.fill('notes.Note');
    await streams.subscribeButton.click();
    await expect(streams.subscription('s1')).toContainText('active');
    await app.showView('Query');
    await app.connectionSelect.selectOption({ label: 'Watched' });
    const digest = async () => ((await (await fetch(`${server?.url}/healthz`)).json()) as { workspace: { digest: string } }).workspace.digest;
    const before = await digest();

    // The editor is ready before the save: only asking for completion is left to do after it.
    await app.setQuery(RETRIEVE);
    await app.caretAfter('"filter": {');
    await page.keyboard.type('"pinn');

    // A field added to the file: once the server runs it, completion offers it within about a second
    // (the console polls a watching server every second), with no reload.
    writeFileSync(file, JSON.stringify(workspace({ pinned: { type: 'boolean', default: false } }), null, 2));
    await expect.poll(digest, { timeout: 15_000 }).not.toBe(before);
    // Each try gives the JSON worker a second to answer (a try cut shorter only restarts its work).
    // Counted from the moment the server runs the new workspace: the console polls every second; the
    // rest is room for two browsers sharing two cores in CI.
    await expect(async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+Space');
      await expect(app.suggestion('pinned')).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 5_000, intervals: [0] });
    await page.keyboard.press('Escape');

    // The next event, written by a request after the save, reaches the subscription opened before it.
    await app.runOn('Watched', { __meta__: { namespace: 'notes.Note', intent: 'create' }, title: 'after the save', pinned: true });
    await app.showView('Streams');
    const created = streams.log.locator('[data-event="created"]');
    await expect(created).toHaveCount(1);
    await created.click();
    await expect(streams.detail).toContainText('pinned: true');
    await expect(streams.subscription('s1')).toContainText('active');
    await expect(streams.connectionState).toContainText('Watched: open');
    await expect(streams.markers.filter({ hasText: 'Reconnected' })).toHaveCount(0);

    // A broken save: a banner on the connection with the server's words, and the old workspace still answers.
    const banner = app.connection('Watched').getByRole('alert');
    await expect(banner).toHaveCount(0);
    writeFileSync(file, '{\n  "apps": {\n    "notes": \n');
    await expect(banner).toContainText('The last save of the workspace file was not applied.', { timeout: 10_000 });
    await expect(banner).toContainText('Invalid workspace jql.workspace.json:4:1: not valid JSON: the file ends where a value');
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
