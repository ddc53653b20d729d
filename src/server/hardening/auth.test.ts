// Credentials that must all be refused: forged, expired and revoked tokens, a session cookie from
// another data directory, and tampered file signatures (docs/protocol.md "Authentication", "File URLs").
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, startFileServer, VAULT_WORKSPACE, type FileServer } from '../testing/file-server.ts';
import { testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';

const ADMIN = { JQL_ADMIN: 'root:correct horse battery' };
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  const workspace = writeWorkspace(VAULT_WORKSPACE);
  a = await testApp({ workspace, env: ADMIN });
  b = await testApp({ workspace, env: ADMIN });
});
afterAll(async () => {
  await a.close();
  await b.close();
});

const whoAmI = { __meta__: { namespace: 'system.User', intent: 'verifyAuthentication', schema: 'controller' }, username: null };
const sign = (secret: Uint8Array, claims: { sub?: string; jti?: string; exp?: number; iat?: number }, alg = 'HS256') =>
  new SignJWT({}).setProtectedHeader({ alg, typ: 'JWT' }).setSubject(claims.sub ?? '1').setJti(claims.jti ?? 'j1').setIssuedAt(claims.iat ?? Math.floor(Date.now() / 1000)).setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 600).sign(secret);

async function refused(t: TestApp, options: { token?: string; cookie?: string }) {
  const res = await t.post(whoAmI, options);
  expect(res.status).toBe(401);
  expect(res.body.__errors__[0].code).toBe('unauthenticated');
  // Even a query open to anyone is refused while the credential is bad.
  const open = await t.post({ __meta__: { namespace: 'vault.Doc', intent: 'count' } }, options);
  expect(open.status).toBe(401);
}

describe('refused credentials', () => {
  it('accepts a good token (control)', async () => {
    const token = await a.login('root', 'correct horse battery');
    expect((await a.post(whoAmI, { token })).body.__payload__).toMatchObject({ username: 'root' });
  });

  it('refuses forged tokens: another secret, alg none, tampered payload or signature, garbage', async () => {
    const good = await a.login('root', 'correct horse battery');
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const otherSecret = new TextEncoder().encode('not the server secret, but 32+ bytes long!!');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const elevated = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: '2' })).toString('base64url');
    for (const token of [
      await sign(otherSecret, {}),
      none,
      `${header}.${elevated}.${signature}`,
      `${header}.${payload}.${signature.slice(0, -2)}AA`,
      'garbage',
      'a.b.c',
      `${header}.${payload}`,
    ]) {
      await refused(a, { token });
    }
    // `Bearer` with nothing after it is a credential presented and malformed.
    const empty = await a.app.inject({ method: 'POST', url: '/jql', headers: { 'content-type': 'application/json', authorization: 'Bearer ' }, payload: JSON.stringify(whoAmI) });
    expect(empty.statusCode).toBe(401);
  });

  it('refuses an expired token and a token of b presented to a (different secret)', async () => {
    const expired = await sign(a.state.secret, { exp: Math.floor(Date.now() / 1000) - 10, iat: Math.floor(Date.now() / 1000) - 100 });
    await refused(a, { token: expired });
    const fromB = await b.login('root', 'correct horse battery');
    await refused(a, { token: fromB });
  });

  it('refuses a revoked token and a revoked session', async () => {
    const token = await a.login('root', 'correct horse battery');
    const out = await a.post({ __meta__: { namespace: 'system.User', intent: 'logout', schema: 'controller' } }, { token });
    expect(out.status).toBe(200);
    await refused(a, { token });
    const login = await a.post({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller', authenticationClass: 'session' }, username: 'root', password: 'correct horse battery' });
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    expect((await a.post(whoAmI, { cookie })).status).toBe(200);
    await a.post({ __meta__: { namespace: 'system.User', intent: 'logout', schema: 'controller', authenticationClass: 'session' } }, { cookie });
    await refused(a, { cookie });
  });

  it('refuses a session cookie from another data directory', async () => {
    const login = await b.post({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller', authenticationClass: 'session' }, username: 'root', password: 'correct horse battery' });
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    expect((await b.post(whoAmI, { cookie })).status).toBe(200);
    await refused(a, { cookie });
    await refused(a, { cookie: 'jql_session=forged-session-value' });
  });
});

describe('tampered file signatures', () => {
  let s: FileServer;
  beforeAll(async () => {
    s = await startFileServer({ workspace: writeWorkspace(VAULT_WORKSPACE) });
  });
  afterAll(() => s.close());

  it('serves a protected file only with its own signature and expiry', async () => {
    const query = { __meta__: { namespace: 'vault.Doc', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { cover: 'c' } } }, title: 'Signed' };
    const created = await s.put(form(query, { c: { data: 'cover bytes' } }));
    expect(created.status).toBe(200);
    const url = new URL(created.body.__payload__.cover.url as string, s.url);
    expect((await s.get(`${url.pathname}${url.search}`)).status).toBe(200);
    const expires = url.searchParams.get('expires') as string;
    const signature = url.searchParams.get('signature') as string;
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    const attempts = [
      `?expires=${expires}&signature=${flip(signature)}`,
      `?expires=${Number(expires) + 3600}&signature=${signature}`,
      `?expires=${Math.floor(Date.now() / 1000) - 1}&signature=${signature}`,
      `?expires=${expires}`,
      `?signature=${signature}`,
      '',
      `?expires=${expires}&signature=`,
      `?expires=${expires}&signature=${signature}&signature=${signature}`,
    ];
    for (const search of attempts) {
      const res = await s.get(`${url.pathname}${search}`);
      expect(res.status, search).toBe(403);
      expect(await res.text()).not.toContain('cover bytes');
    }
    // Another file's id under this file's signature.
    const other = await s.put(form(query, { c: { data: 'other cover' } }));
    const otherPath = new URL(other.body.__payload__.cover.url as string, s.url).pathname;
    expect((await s.get(`${otherPath}${url.search}`)).status).toBe(403);
  });
});
