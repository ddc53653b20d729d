// Issue 21 point 1 and issue 30.1-2 (docs/protocol.md "The local admin"): no route hands the local
// admin's credential to a caller without the launch key; the key is exchanged once for an HttpOnly
// SameSite=Strict cookie named with the port and a secret for the page; only both together, from this
// machine and the server's own origin, act as the local admin; a restart kills them.
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalAdminHostError, start, type RunningServer } from '../index.ts';
import { tempDir } from '../testing/fixture.ts';
import { launchCredential, readExchange, type LaunchCredential } from '../testing/launch.ts';
import { rawRequest } from '../testing/raw-http.ts';

const CORS_ORIGIN = 'http://console.example:5173';
let dataDir: string;
let server: RunningServer;
/** Both halves this start's one exchange of its launch key gave. */
let admin: LaunchCredential;
/** The answer to that exchange. */
let exchange: Response;
beforeAll(async () => {
  dataDir = tempDir();
  server = await start({ dataDir, port: 0, env: {}, localAdmin: true, cors: [CORS_ORIGIN] });
  // Before the exchange: a visit from a Host with another port is refused and does not use the key up.
  const otherPort = await rawRequest(server.launchUrl as string, { headers: { host: '127.0.0.1:1' } });
  expect(otherPort.status).toBe(403);
  expect(otherPort.headers['set-cookie']).toBeUndefined();
  exchange = await fetch(server.launchUrl as string, { redirect: 'manual' });
  admin = await readExchange(exchange.clone());
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const users = { __meta__: { namespace: 'system.User', intent: 'retrieve', filter: { username: 'local-admin' } }, username: null, roles: null };
async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
}

describe('the launch URL', () => {
  it('carries a key of at least 128 random bits, on the loopback origin the server listens on', () => {
    const url = new URL(server.launchUrl as string);
    expect(url.origin).toBe(new URL(server.url).origin);
    expect(url.pathname).toBe('/');
    expect(Buffer.from(url.searchParams.get('key') as string, 'base64url').length).toBeGreaterThanOrEqual(16);
  });

  it('exchanges the key for an HttpOnly SameSite=Strict cookie named with the port, and a page that keeps the secret and replaces itself with /', async () => {
    const response = exchange;
    expect(response.status).toBe(200);
    const [set] = response.headers.getSetCookie();
    expect(set).toMatch(new RegExp(`^jql_local_admin_${server.port}=[\\w-]{43}; Path=/; HttpOnly; SameSite=Strict$`));
    const key = new URL(server.launchUrl as string).searchParams.get('key') as string;
    expect(set).not.toContain(key);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'sha256-[\w+/=]+';/);
    const html = await response.text();
    expect(html).toContain(`content="${admin.secret}"`);
    expect(html).toContain("localStorage.setItem(\"jql-local-admin-secret\"");
    expect(html).toContain("location.replace('/')");
    expect(html).not.toContain(key);
    expect(admin.secret).not.toBe(admin.cookie.split('=')[1]);
  });

  it('gives nothing for a wrong key (nor, see beforeAll, to a Host with another port)', async () => {
    const wrong = await fetch(`${new URL(server.url).origin}/?key=AAAA`, { redirect: 'manual' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('exchanges once: a second visit is refused with a sentence saying to restart for a new key (issue 30.2)', async () => {
    const again = await fetch(server.launchUrl as string, { redirect: 'manual' });
    expect(again.status).toBe(410);
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await again.text()).toContain('Restart the server (<code>jql-console serve --local-admin</code>) for a new link.');
    // The browser that exchanged it stays the admin.
    expect((await post(server.url, users, admin.headers)).status).toBe(200);
  });
});

describe('who is the local admin', () => {
  it('is the caller with the cookie and the page secret; a caller without either (another process, loopback or not) is anonymous', async () => {
    const withBoth = await post(server.url, users, admin.headers);
    expect(withBoth.status).toBe(200);
    expect(withBoth.body.__payload__).toEqual([{ id: expect.any(Number), username: 'local-admin', roles: ['admin'] }]);
    expect((await post(server.url, users)).status).toBe(401);
    // A cookie caught by another server on this host and replayed without the page's secret (issue 30.1).
    expect((await post(server.url, users, { cookie: admin.cookie })).status).toBe(401);
    expect((await post(server.url, users, { 'x-jql-local-admin': admin.secret })).status).toBe(401);
    expect((await post(server.url, users, { cookie: admin.cookie, 'x-jql-local-admin': admin.cookie.split('=')[1] as string })).status).toBe(401);
    // The cookie of another port is another server's.
    const otherPort = `jql_local_admin_${server.port + 1}=${admin.cookie.split('=')[1]}`;
    expect((await post(server.url, users, { cookie: otherPort, 'x-jql-local-admin': admin.secret })).status).toBe(401);
  });

  it('never hands a credential out: console-config.json only says whether this browser is the local admin', async () => {
    const config = await (await fetch(`${server.url}/console-config.json`)).json();
    expect(config).toEqual({ basePath: '', version: expect.any(String) });
    const asAdmin = await (await fetch(`${server.url}/console-config.json`, { headers: admin.headers })).json();
    expect(asAdmin).toEqual({ basePath: '', version: expect.any(String), localAdmin: true });
    const cookieOnly = await (await fetch(`${server.url}/console-config.json`, { headers: { cookie: admin.cookie } })).json();
    expect(cookieOnly).toEqual({ basePath: '', version: expect.any(String) });
    const key = new URL(server.launchUrl as string).searchParams.get('key') as string;
    for (const text of [JSON.stringify(config), JSON.stringify(asAdmin)]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(admin.cookie.split('=')[1]);
      expect(text).not.toContain(admin.secret);
      expect(text).not.toContain(server.localAdminToken);
    }
  });

  it('is not a page of another origin that rides the cookie (another port of 127.0.0.1 is the same site)', async () => {
    for (const origin of ['http://127.0.0.1:1', CORS_ORIGIN, 'null']) {
      expect((await post(server.url, users, { ...admin.headers, origin })).status, origin).toBe(401);
    }
    expect((await post(server.url, users, { ...admin.headers, origin: new URL(server.url).origin })).status).toBe(200);
  });

  it('is never served with CORS headers, whatever --cors allows', async () => {
    const origin = { origin: CORS_ORIGIN };
    const launch = await fetch(server.launchUrl as string, { redirect: 'manual', headers: origin });
    expect(launch.headers.get('access-control-allow-origin')).toBeNull();
    const config = await fetch(`${server.url}/console-config.json`, { headers: origin });
    expect(config.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(server.launchUrl as string, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'GET' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    // The JQL endpoint itself is what --cors is for.
    const jql = await post(server.url, { __meta__: { namespace: 'tickets.Ticket', intent: 'count' } }, origin);
    expect(jql.headers.get('access-control-allow-origin')).toBe(CORS_ORIGIN);
  });
});

describe('a restart on the same data directory', () => {
  it('kills the key, the cookie and the token of the earlier start', async () => {
    const dir = tempDir();
    const first = await start({ dataDir: dir, port: 0, env: {}, localAdmin: true });
    const old = await launchCredential(first);
    const { launchUrl, localAdminToken } = first;
    expect((await post(first.url, users, { authorization: `Bearer ${localAdminToken}` })).status).toBe(200);
    await first.close();
    const second = await start({ dataDir: dir, port: first.port, env: {}, localAdmin: true });
    try {
      const stale = await post(second.url, { __meta__: { namespace: 'tickets.Ticket', intent: 'count' } }, old.headers);
      expect(stale.status).toBe(401);
      expect(stale.body.__errors__[0].code).toBe('unauthenticated');
      // The answer clears the stale cookie, so the browser is anonymous from its next request on.
      expect(stale.headers.getSetCookie()).toEqual([expect.stringMatching(new RegExp(`^jql_local_admin_${first.port}=; Max-Age=0; .*HttpOnly; SameSite=Strict$`))]);
      const oldKey = await fetch(launchUrl as string, { redirect: 'manual' });
      expect(oldKey.status).toBe(401);
      expect(oldKey.headers.getSetCookie()).toEqual([]);
      expect((await post(second.url, users, { authorization: `Bearer ${localAdminToken}` })).status).toBe(401);
      // The new start's own key works.
      expect((await post(second.url, users, (await launchCredential(second)).headers)).status).toBe(200);
    } finally {
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('--local-admin on a network address', () => {
  it('is refused before anything starts', async () => {
    const dir = join(tmpdir(), `jql-never-created-${process.pid}`);
    for (const host of ['0.0.0.0', '::', '192.168.1.20', '127.999.999.999']) {
      await expect(start({ dataDir: dir, port: 0, env: {}, localAdmin: true, host })).rejects.toThrow(LocalAdminHostError);
    }
    expect(existsSync(dir)).toBe(false);
  });
});

it('cannot be signed in to with a password', async () => {
  const res = await post(server.url, { __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: 'local-admin', password: '' });
  expect(res.status).toBe(401);
});
