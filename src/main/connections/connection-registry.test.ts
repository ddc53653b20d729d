/**
 * Main's connection registry (issue 21.3, 21.4): which credential a page request gets, to which
 * origin, and which local addresses main may reach. The proxies' own tests (http-proxy, ws-proxy,
 * upload-proxy) show the same rules over real sockets.
 */
import { describe, expect, it } from 'vitest';
import { EMBEDDED_CONNECTION_ID } from '../../shared/bridge.ts';
import { memoryTextFile } from '../text-file.ts';
import { testConnections } from '../testing/test-connections.ts';
import { ConnectionRegistry } from './connection-registry.ts';
import { tokenKey } from './credential-vault.ts';

const page = (url: string, headers: Record<string, string> = {}) => ({ connectionId: 'conn-1', url, headers, credentials: 'connection' as const });

describe('ConnectionGateway', () => {
  it("adds the connection's token only to a request on its origin; another origin gets no credential (it is refused)", async () => {
    const c = testConnections();
    await c.add({ id: 'conn-1', baseUrl: 'https://jql.example/api', authClass: 'jwt' }, 'the-token');
    const own = await c.gateway.prepare(page('https://jql.example/api/jql', { Authorization: 'Bearer forged', 'X-Trace': '1' }));
    expect(own.headers).toEqual({ 'X-Trace': '1', Authorization: 'Bearer the-token' });
    expect(own.jar).toBe('conn-1');
    for (const url of ['https://collector.example/jql/files/1', 'http://jql.example/api/jql', 'https://jql.example:8443/jql', 'https://jql.example.evil.example/']) {
      await expect(c.gateway.prepare(page(url)), url).rejects.toThrow(/is not the origin of this connection/);
    }
  });

  it('gives a session connection its cookie jar and no bearer token', async () => {
    const c = testConnections();
    await c.add({ id: 'conn-1', baseUrl: 'https://jql.example', authClass: 'session' }, 'stale-token');
    const prepared = await c.gateway.prepare(page('https://jql.example/jql'));
    expect(prepared.headers).toEqual({});
    expect(prepared.jar).toBe('conn-1');
  });

  it("forgets a connection's token and cookies when the page points it at another origin or class", async () => {
    const c = testConnections();
    await c.add({ id: 'conn-1', baseUrl: 'https://jql.example', authClass: 'jwt' }, 'the-token');
    await c.registry.register({ id: 'conn-1', baseUrl: 'https://jql.example/other-base', authClass: 'jwt' });
    expect(await c.vault.has(tokenKey('conn-1'))).toBe(true);
    await c.registry.register({ id: 'conn-1', baseUrl: 'https://collector.example', authClass: 'jwt' });
    expect(c.forgotten).toEqual(['conn-1']);
    expect(await c.vault.has(tokenKey('conn-1'))).toBe(false);
    const prepared = await c.gateway.prepare(page('https://collector.example/jql'));
    expect(prepared.headers.Authorization).toBeUndefined();
  });

  it("keeps a connection's origin across a restart, so a renamed origin cannot inherit the token", async () => {
    const file = memoryTextFile();
    const forgotten: string[] = [];
    const first = new ConnectionRegistry({ file, forgetCredentials: async (id) => void forgotten.push(id) });
    await first.register({ id: 'conn-1', baseUrl: 'https://jql.example', authClass: 'jwt', answerLimit: 2 * 1024 * 1024 });
    const second = new ConnectionRegistry({ file, forgetCredentials: async (id) => void forgotten.push(id) });
    await second.load();
    expect(second.get('conn-1')).toMatchObject({ origin: 'https://jql.example', answerLimit: 2 * 1024 * 1024 });
    await second.register({ id: 'conn-1', baseUrl: 'https://collector.example', authClass: 'jwt' });
    expect(forgotten).toEqual(['conn-1']);
  });

  it('signs the embedded connection in as the local admin, which the page can neither read nor re-point', async () => {
    const c = testConnections();
    c.registry.setEmbedded('http://127.0.0.1:43210');
    c.vault.setLocalAdmin('local-admin-credential');
    const embedded = (url: string) => c.gateway.prepare({ connectionId: EMBEDDED_CONNECTION_ID, url, headers: {}, credentials: 'connection' });
    expect((await embedded('http://127.0.0.1:43210/jql')).headers.Authorization).toBe('Bearer local-admin-credential');
    // No reach question: the embedded server is main's own.
    expect(c.asked).toEqual([]);
    await c.registry.register({ id: EMBEDDED_CONNECTION_ID, baseUrl: 'https://collector.example', authClass: 'jwt', answerLimit: 4 * 1024 * 1024 });
    await expect(embedded('https://collector.example/jql')).rejects.toThrow(/is not the origin/);
    expect(c.registry.get(EMBEDDED_CONNECTION_ID)).toMatchObject({ origin: 'http://127.0.0.1:43210', answerLimit: 4 * 1024 * 1024 });
    // Signing in as someone else lasts until it is deleted; then the local admin is back.
    expect(await c.vault.has(tokenKey(EMBEDDED_CONNECTION_ID))).toBe(false);
    await c.vault.set(tokenKey(EMBEDDED_CONNECTION_ID), 'viewer-token');
    expect((await embedded('http://127.0.0.1:43210/jql')).headers.Authorization).toBe('Bearer viewer-token');
    await c.vault.delete(tokenKey(EMBEDDED_CONNECTION_ID));
    expect((await embedded('http://127.0.0.1:43210/jql')).headers.Authorization).toBe('Bearer local-admin-credential');
    expect(c.secrets.values.size).toBe(0);
  });
});

describe('ReachPolicy', () => {
  it('reaches a local address only after the user allowed it in main, and remembers the yes', async () => {
    const c = testConnections({ allowLocal: true });
    await c.add({ id: 'conn-1', baseUrl: 'http://127.0.0.1:9229', authClass: 'jwt' });
    await c.gateway.prepare(page('http://127.0.0.1:9229/json'));
    await c.gateway.prepare(page('http://127.0.0.1:9229/json'));
    expect(c.asked).toEqual(['http://127.0.0.1:9229']);
    expect(JSON.parse(c.allowedFile.text!)).toEqual(['http://127.0.0.1:9229']);
  });

  it('refuses a local address the user did not allow, and asks only once per run', async () => {
    const c = testConnections({ allowLocal: false });
    for (const [id, baseUrl] of [
      ['conn-1', 'http://169.254.169.254'],
      ['conn-2', 'http://localhost:8787'],
      ['conn-3', 'http://[::1]:8787'],
      ['conn-4', 'http://10.0.0.8'],
    ] as const) {
      await c.add({ id, baseUrl, authClass: 'jwt' });
      await expect(c.gateway.prepare({ ...page(`${baseUrl}/x`), connectionId: id })).rejects.toThrow(/an address on this computer or its network .*you did not/);
    }
    await expect(c.gateway.prepare({ ...page('http://169.254.169.254/x'), connectionId: 'conn-1' })).rejects.toThrow();
    expect(c.asked).toHaveLength(4);
  });

  it('looks names up: one that resolves to a local address is asked about, a public one is not', async () => {
    const c = testConnections({ allowLocal: false, resolve: async (host) => (host === 'rebind.example' ? ['127.0.0.1'] : ['93.184.216.34']) });
    await c.add({ id: 'conn-1', baseUrl: 'https://jql.example', authClass: 'jwt' });
    await c.add({ id: 'conn-2', baseUrl: 'https://rebind.example', authClass: 'jwt' });
    await c.gateway.prepare(page('https://jql.example/jql'));
    await expect(c.gateway.prepare({ ...page('https://rebind.example/jql'), connectionId: 'conn-2' })).rejects.toThrow(/\(127\.0\.0\.1\)/);
    expect(c.asked).toEqual(['https://rebind.example']);
  });
});

describe('ConnectionGateway wording', () => {
  it('words a name that does not resolve like any unreachable server', async () => {
    const c = testConnections({
      resolve: async () => {
        throw new Error('net::ERR_NAME_NOT_RESOLVED');
      },
    });
    await c.add({ id: 'conn-1', baseUrl: 'https://nowhere.example', authClass: 'jwt' });
    await expect(c.gateway.prepare(page('https://nowhere.example/jql'))).rejects.toThrow('Could not reach https://nowhere.example (net::ERR_NAME_NOT_RESOLVED).');
  });
});
