/**
 * The migration preview in the console (issue 33, docs/workspace.md "Changing a workspace while it
 * runs"): a field that holds values is removed from the file of a running `serve --watch`; the
 * connection shows the preview with the count of rows and a sample of the values, nothing is lost (a
 * read still returns them) until an admin applies it; after Apply (confirmed with the rows named) the
 * field is gone from describe and the banner goes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures/test.ts';
import { startServer, type SpawnedServer } from './fixtures/serve.ts';
import { WatchBannerPage } from './pages/watch-banner.ts';

const NOTE = { fields: { title: { type: 'string', required: true } }, permissions: { retrieve: ['anyone'], create: ['anyone'] } };
const workspace = (fields: Record<string, unknown>) => ({ name: 'notes', apps: { notes: { models: { Note: { ...NOTE, fields: { ...NOTE.fields, ...fields } } } } } });
const ADMIN = { username: 'keeper', password: 'keeper-secret-1' };

/** A workspace file whose notes have a `body` field, in a folder of its own (removed by the test). */
function workspaceFolder(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jql-e2e-preview-'));
  const file = join(dir, 'jql.workspace.json');
  writeFileSync(file, JSON.stringify(workspace({ body: { type: 'text', null: true } }), null, 2));
  return { dir, file };
}

/** `serve --watch` on that file, its first admin ADMIN, open to the console's origin. */
const startWatched = (file: string, baseURL: string): Promise<SpawnedServer> =>
  startServer({ corsOrigin: new URL(baseURL).origin, admin: `${ADMIN.username}:${ADMIN.password}`, watch: true, workspace: file });

test('a removed field that holds values is previewed with its rows, kept until Apply, and gone from describe after it', async ({ app, page, baseURL }) => {
  test.setTimeout(90_000);
  const { dir, file } = workspaceFolder();
  let server: SpawnedServer | null = null;
  try {
    server = await startWatched(file, baseURL!);
    const url = server.url;
    const jql = async (body: unknown) => (await (await fetch(`${url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as { __payload__: any };
    const noteFields = async () => Object.keys((await jql({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } })).__payload__.apps.notes.models.Note.fields);
    const bodies = async () => (await jql({ __meta__: { namespace: 'notes.Note', intent: 'retrieve' }, body: null })).__payload__;
    await jql({ __meta__: { namespace: 'notes.Note', intent: 'create' }, title: 'one', body: 'first body' });
    await jql({ __meta__: { namespace: 'notes.Note', intent: 'create' }, title: 'two', body: 'second body' });
    await app.addConnection('Watched', url, ADMIN, { kind: 'development' });
    const watch = new WatchBannerPage(app, 'Watched');

    // The field is removed from the file: the console shows what that would lose, row count and values.
    writeFileSync(file, JSON.stringify(workspace({}), null, 2));
    const change = watch.change('notes.Note.body');
    await expect(change).toContainText('2 rows', { timeout: 15_000 });
    await expect(change).toContainText('"first body"');
    await expect(watch.banner).toContainText('it would stop serving stored values');

    // Nothing is lost until Apply: reads still return the values, describe still has the field.
    expect(await bodies()).toEqual([
      { id: 1, body: 'first body' },
      { id: 2, body: 'second body' },
    ]);
    expect(await noteFields()).toContain('body');

    // Apply asks first, naming the rows that stop being served.
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await watch.apply.focus();
    await page.keyboard.press('Enter');
    await expect(watch.banner).toHaveCount(0, { timeout: 15_000 });
    expect(asked).toContain('notes.Note.body: 2 rows');
    await expect.poll(async () => noteFields().catch(() => ['restarting']), { timeout: 15_000 }).not.toContain('body');
    await expect.poll(async () => noteFields().catch(() => []), { timeout: 15_000 }).toContain('title');
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Cancel keeps the running workspace, and the banner stays gone until the next save', async ({ app, baseURL }) => {
  test.setTimeout(90_000);
  const { dir, file } = workspaceFolder();
  let server: SpawnedServer | null = null;
  try {
    server = await startWatched(file, baseURL!);
    const url = server.url;
    await fetch(`${url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ __meta__: { namespace: 'notes.Note', intent: 'create' }, title: 'one', body: 'kept' }) });
    await app.addConnection('Watched', url, ADMIN, { kind: 'development' });
    const watch = new WatchBannerPage(app, 'Watched');
    writeFileSync(file, JSON.stringify(workspace({}), null, 2));
    await expect(watch.change('notes.Note.body')).toContainText('1 row', { timeout: 15_000 });
    await watch.cancel.click();
    await expect(watch.banner).toHaveCount(0, { timeout: 10_000 });
    // Polled again and again: the server forgot the preview, it does not come back by itself.
    await expect.poll(async () => ((await (await fetch(`${url}/healthz`)).json()) as { watch: { pendingDigest: string | null } }).watch.pendingDigest).toBeNull();
    const describe = (await (await fetch(`${url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } }) })).json()) as { __payload__: any };
    expect(Object.keys(describe.__payload__.apps.notes.models.Note.fields)).toContain('body');
    // The next save is previewed again.
    writeFileSync(file, JSON.stringify(workspace({ tag: { type: 'string', null: true } }), null, 2));
    await expect(watch.change('notes.Note.body')).toBeVisible({ timeout: 15_000 });
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
