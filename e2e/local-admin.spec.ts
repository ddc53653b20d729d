/**
 * The local admin stays with whoever started the server (issue 21 point 1, docs/workspace.md "The local
 * admin"): another process on the machine gets nothing from a running `serve --local-admin`; the
 * launch URL it printed, opened in Chromium, makes the console the admin through a cookie no script
 * can read; after a restart on the same data directory the old key and cookie are dead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures/test.ts';
import { freePort, startServer, type SpawnedServer } from './fixtures/serve.ts';
import { ConsolePage } from './pages/console-page.ts';

const USERS = { __meta__: { namespace: 'system.User', intent: 'retrieve', filter: { username: 'local-admin' } }, username: null, roles: null };

test('only the printed launch URL makes a console the local admin, and a restart kills its key and cookie', async ({ browser }) => {
  test.setTimeout(90_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'jql-e2e-local-admin-'));
  const port = await freePort();
  let server: SpawnedServer | null = await startServer({ localAdmin: true, dataDir, port });
  // A browser with nothing stored: not the run's usual local admin cookie.
  const context = await browser.newContext({ baseURL: server.url, storageState: { cookies: [], origins: [] } });
  try {
    const launchUrl = server.launchUrl as string;
    const key = new URL(launchUrl).searchParams.get('key') as string;

    // Another process of this machine (this test's own Node) asks everything a page would.
    const config = await (await fetch(`${server.url}/console-config.json`)).text();
    expect(JSON.parse(config)).toEqual({ basePath: '', version: expect.any(String) });
    const page = await (await fetch(`${server.url}/`)).text();
    const asAnyone = await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(USERS) });
    expect(asAnyone.status).toBe(401);
    for (const text of [config, page]) expect(text).not.toContain(key);

    // The person who started it opens the URL it printed.
    const tab = await context.newPage();
    await tab.goto(launchUrl);
    await expect(tab).toHaveURL(`${server.url}/`);
    const app = new ConsolePage(tab);
    await expect(app.connectionUser('Embedded server')).toHaveText('local-admin');
    await app.runOn('Embedded server', USERS, /^200/);
    await expect(app.tableRows).toHaveCount(1);
    // The credential is a cookie no script of the page can read, and nothing the page stores holds it.
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: `jql_local_admin_${port}`, httpOnly: true, sameSite: 'Strict' });
    const visible = await tab.evaluate(() => {
      const w = globalThis as unknown as { document: { cookie: string }; localStorage: { [key: string]: string }; sessionStorage: { [key: string]: string } };
      return JSON.stringify([w.document.cookie, { ...w.localStorage }, { ...w.sessionStorage }]);
    });
    expect(visible).not.toContain(cookie!.value);
    expect(visible).not.toContain(key);

    // A restart on the same data directory and port: the old cookie and key are dead.
    await server.stop();
    server = await startServer({ localAdmin: true, dataDir, port });
    await app.open();
    await expect(app.connection('Embedded server')).toContainText('not signed in');
    await app.runOn('Embedded server', USERS, /^401/);
    expect(await context.cookies()).toEqual([]);
    const old = await tab.goto(launchUrl);
    expect(old?.status()).toBe(401);
    await expect(tab.getByRole('heading', { name: 'This launch link is not valid' })).toBeVisible();
    expect(await context.cookies()).toEqual([]);
    // The new start's URL works again.
    await tab.goto(server.launchUrl as string);
    await expect(app.connectionUser('Embedded server')).toHaveText('local-admin');
  } finally {
    await context.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
