/**
 * The local admin is usable only by the page of the origin it was issued to (issue 30 defect 1,
 * docs/workspace.md "The local admin"). Cookies ignore ports: every server on 127.0.0.1 the browser
 * talks to receives the console's cookie. Such a server (a real one here, on another port) that
 * replays the cookie it caught is anonymous, because the other half, the page's secret, stays in the
 * console origin's storage and goes to that origin only. The console itself stays the admin after a
 * reload and in a second tab, and two `--local-admin` servers in one browser keep their own cookies.
 */
import { createServer, type Server } from 'node:http';
import { expect, test } from './fixtures/test.ts';
import { startServer, type SpawnedServer } from './fixtures/serve.ts';
import { ConsolePage } from './pages/console-page.ts';

const USERS = { __meta__: { namespace: 'system.User', intent: 'retrieve', filter: { username: 'local-admin' } }, username: null, roles: null };

/** A plain server on another port of 127.0.0.1 that keeps the headers of every request it gets. */
async function catcher(): Promise<{ url: string; seen: Array<Record<string, string | string[] | undefined>>; server: Server }> {
  const seen: Array<Record<string, string | string[] | undefined>> = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title><p>another server</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen, server };
}

const asUsers = (url: string, headers: Record<string, string>) =>
  fetch(`${url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(USERS) });

test('a cookie caught by another server on 127.0.0.1 is anonymous without the page secret; the console stays the admin', async ({ browser }) => {
  test.setTimeout(120_000);
  const servers: SpawnedServer[] = [];
  const elsewhere = await catcher();
  // A browser with nothing stored: not the run's usual local admin.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    servers.push(await startServer({ localAdmin: true }), await startServer({ localAdmin: true }));
    const [a, b] = servers as [SpawnedServer, SpawnedServer];
    const tab = await context.newPage();
    await tab.goto(a.launchUrl as string);
    await expect(tab).toHaveURL(`${a.url}/`);
    const app = new ConsolePage(tab);
    await expect(app.connectionUser('Embedded server')).toHaveText('local-admin');

    // The second server's launch URL in the same browser: each keeps its own cookie.
    const other = await context.newPage();
    await other.goto(b.launchUrl as string);
    await expect(new ConsolePage(other).connectionUser('Embedded server')).toHaveText('local-admin');
    const names = (await context.cookies()).map((c) => c.name).sort();
    expect(names).toEqual([`jql_local_admin_${new URL(a.url).port}`, `jql_local_admin_${new URL(b.url).port}`].sort());

    // The console's page talks to the other server (a fetch with cookies, then a link followed): the
    // browser hands it the cookies, never the page secret.
    await tab.evaluate((url) => fetch(url, { credentials: 'include', mode: 'no-cors' }).then(() => undefined), `${elsewhere.url}/fetched`);
    await tab.goto(`${elsewhere.url}/followed`);
    expect(elsewhere.seen.length).toBe(2);
    const aCookie = `jql_local_admin_${new URL(a.url).port}`;
    for (const headers of elsewhere.seen) {
      expect(String(headers.cookie)).toContain(`${aCookie}=`);
      expect(headers['x-jql-local-admin']).toBeUndefined();
    }
    const caught = String(elsewhere.seen[0]!.cookie)
      .split(';')
      .map((c) => c.trim())
      .find((c) => c.startsWith(`${aCookie}=`)) as string;

    // Replayed from a program without an Origin: anonymous, and the console config says no admin.
    expect((await asUsers(a.url, { cookie: caught })).status).toBe(401);
    expect(await (await fetch(`${a.url}/console-config.json`, { headers: { cookie: caught } })).json()).not.toHaveProperty('localAdmin');
    // (With the page's secret, which only the console's origin holds, the same cookie is the admin:
    // the 401 above is the missing half, not a dead cookie.)
    await tab.goto(`${a.url}/`);
    const secret = await tab.evaluate(() => localStorage.getItem('jql-local-admin-secret'));
    expect((await asUsers(a.url, { cookie: caught, 'x-jql-local-admin': secret as string })).status).toBe(200);
    // A wrong secret, or the other server's secret with this cookie, is anonymous too.
    const secretOfB = await other.evaluate(() => localStorage.getItem('jql-local-admin-secret'));
    expect(secretOfB).not.toBe(secret);
    expect((await asUsers(a.url, { cookie: caught, 'x-jql-local-admin': secretOfB as string })).status).toBe(401);

    // The console of the right origin: still the admin after a reload and in a second tab.
    await tab.reload();
    await expect(app.connectionUser('Embedded server')).toHaveText('local-admin');
    await app.runOn('Embedded server', USERS, /^200/);
    await expect(app.tableRows).toHaveCount(1);
    const second = await context.newPage();
    await second.goto(`${a.url}/`);
    await expect(new ConsolePage(second).connectionUser('Embedded server')).toHaveText('local-admin');
    // And the other server's console is still its admin: the two cookies did not clear each other.
    await other.reload();
    await expect(new ConsolePage(other).connectionUser('Embedded server')).toHaveText('local-admin');
  } finally {
    await context.close();
    await Promise.all(servers.map((s) => s.stop()));
    elsewhere.server.closeAllConnections();
    await new Promise<void>((resolve) => elsewhere.server.close(() => resolve()));
  }
});
