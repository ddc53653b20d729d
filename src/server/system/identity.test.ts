import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../testing/fixture.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const login = (username: string, password: string, extra: Record<string, unknown> = {}) => ({
  __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller', ...extra },
  username,
  password,
});
const tickets = (intent: string, extra: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
  __meta__: { namespace: 'tickets.Ticket', intent, ...extra },
  ...data,
});
const verify = { __meta__: { namespace: 'system.User', intent: 'verifyAuthentication', schema: 'controller' }, username: null, roles: null };

describe('login and tokens', () => {
  it('issues a JWT with expiry and the user, never the password', async () => {
    const res = await t.post(login('admin', 'admin-demo'));
    expect(res.status).toBe(200);
    const { token, expires_at, user } = res.body.__payload__;
    expect(token.split('.')).toHaveLength(3);
    expect(new Date(expires_at).getTime()).toBeGreaterThan(Date.now());
    expect(user).toMatchObject({ username: 'admin', roles: ['admin'] });
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|password/);
    const me = await t.post(verify, { token });
    expect(me.body.__payload__).toEqual({ id: user.id, username: 'admin', roles: ['admin'] });
  });

  it('refuses a wrong username or password with one message', async () => {
    const wrongPassword = await t.post(login('admin', 'nope'));
    const wrongUser = await t.post(login('nobody', 'nope'));
    expect(wrongPassword.status).toBe(401);
    expect(wrongUser.status).toBe(401);
    expect(wrongPassword.body.__errors__[0].message).toBe(wrongUser.body.__errors__[0].message);
  });

  it('answers 401 for forged, expired and revoked tokens, even on intents open to anyone', async () => {
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('1').setJti('x').setExpirationTime('1h').sign(new TextEncoder().encode('another-secret'));
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('1').setJti('y').setExpirationTime(Math.floor(Date.now() / 1000) - 10).sign(t.state.secret);
    for (const token of [forged, expired, 'garbage']) {
      const res = await t.post(tickets('retrieve', { limit: 1 }), { token });
      expect(res.status, token).toBe(401);
      expect(res.body.__errors__[0].code).toBe('unauthenticated');
    }
    const token = await t.login('viewer', 'viewer-demo');
    expect((await t.post(verify, { token })).status).toBe(200);
    const out = await t.post({ __meta__: { namespace: 'system.User', intent: 'logout', schema: 'controller' } }, { token });
    expect(out.status).toBe(200);
    const after = await t.post(verify, { token });
    expect(after.status).toBe(401);
    // login ignores the revoked token and issues a new one
    const again = await t.post(login('viewer', 'viewer-demo'), { token });
    expect(again.status).toBe(200);
  });

  it('session logins set an HttpOnly SameSite=Lax cookie that logout revokes', async () => {
    const res = await t.post(login('agent', 'agent-demo', { authenticationClass: 'session' }));
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/jql_session=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const cookie = setCookie.split(';')[0] as string;
    const me = await t.post({ ...verify, __meta__: { ...verify.__meta__, authenticationClass: 'session' } }, { cookie });
    expect(me.body.__payload__.username).toBe('agent');
    // a jwt-only request ignores the cookie
    const jwtOnly = await t.post({ ...verify, __meta__: { ...verify.__meta__, authenticationClass: 'jwt' } }, { cookie });
    expect(jwtOnly.status).toBe(401);
    await t.post({ __meta__: { namespace: 'system.User', intent: 'logout', schema: 'controller' } }, { cookie });
    expect((await t.post(verify, { cookie })).status).toBe(401);
  });

  it('applies __root_meta__.authenticationClass to every subquery', async () => {
    const token = await t.login('admin', 'admin-demo');
    const res = await t.post({ __root_meta__: { authenticationClass: 'session' }, me: verify }, { token });
    expect(res.status).toBe(200);
    expect(res.body.__payload__.me.errors[0].code).toBe('unauthenticated');
    const jwt = await t.post({ __root_meta__: { authenticationClass: 'jwt' }, me: verify }, { token });
    expect(jwt.body.__payload__.me.data.username).toBe('admin');
  });
});

describe('permissions', () => {
  it('answers 401 to anonymous and 403 to signed-in callers without the role', async () => {
    const anon = await t.post(tickets('create', {}, { title: 'x' }));
    expect(anon.status).toBe(401);
    const viewer = await t.login('viewer', 'viewer-demo');
    const created = await t.post(tickets('create', {}, { title: 'from viewer' }), { token: viewer });
    expect(created.status).toBe(200);
    const update = await t.post(tickets('update', { uniqueObject: { id: created.body.__payload__.id } }, { title: 'y' }), { token: viewer });
    expect(update.status).toBe(403);
    expect(update.body.__errors__[0].code).toBe('forbidden');
    const del = await t.post(tickets('delete', { uniqueObject: { id: 1 } }), { token: viewer });
    expect(del.status).toBe(403);
    const users = await t.post({ __meta__: { namespace: 'system.User', intent: 'retrieve' } });
    expect(users.status).toBe(401);
  });

  it('scopes an agent to its own tickets: others answer not_found', async () => {
    const agent = await t.login('agent', 'agent-demo');
    const me = (await t.post(verify, { token: agent })).body.__payload__.id;
    const mine = await t.post(tickets('count', { filter: { assignee: me } }));
    const foreign = await t.post(tickets('retrieve', { filter: { assignee__ne: me }, limit: 1 }, { id: null }));
    const foreignId = foreign.body.__payload__[0].id;
    const res = await t.post(tickets('update', { uniqueObject: { id: foreignId } }, { status: 'closed' }), { token: agent });
    expect(res.status).toBe(404);
    const own = await t.post(tickets('retrieve', { filter: { assignee: me }, limit: 1 }, { id: null }));
    const ok = await t.post(tickets('update', { uniqueObject: { id: own.body.__payload__[0].id } }, { status: 'pending' }), { token: agent });
    expect(ok.status).toBe(200);
    expect(mine.body.__payload__.count).toBeGreaterThan(0);
    // moving a ticket out of the agent's scope is refused and nothing changes
    const away = await t.post(tickets('update', { uniqueObject: { id: own.body.__payload__[0].id } }, { assignee: 1 }), { token: agent });
    expect(away.status).toBe(403);
  });

  it('does not leak a nested model the caller may not read', async () => {
    const anon = await t.post(tickets('retrieve', { limit: 1 }, { title: null, assignee: { username: null } }));
    expect(anon.status).toBe(401);
    const viewer = await t.login('viewer', 'viewer-demo');
    const ok = await t.post(tickets('retrieve', { limit: 1, filter: { assignee__isnull: false } }, { assignee: { username: null } }), { token: viewer });
    expect(ok.status).toBe(200);
    expect(ok.body.__payload__[0].assignee).toHaveProperty('username');
  });

  it('lets only an admin create users and set roles; passwords never come back', async () => {
    const viewer = await t.login('viewer', 'viewer-demo');
    const denied = await t.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'eve', password: 'pw' }, { token: viewer });
    expect(denied.status).toBe(403);
    const admin = await t.login('admin', 'admin-demo');
    const res = await t.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'eve', password: 'eve-pass', roles: ['agent'] }, { token: admin });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toMatch(/eve-pass|scrypt/);
    expect(await t.login('eve', 'eve-pass')).toBeTruthy();
    const asking = await t.post({ __meta__: { namespace: 'system.User', intent: 'retrieve' }, password: null }, { token: admin });
    expect(asking.body.__errors__[0].code).toBe('unknown_field');
    const all = await t.post({ __meta__: { namespace: 'system.User', intent: 'retrieve' } }, { token: admin });
    expect(JSON.stringify(all.body)).not.toMatch(/scrypt|password/);
    const nested = await t.post(tickets('retrieve', { limit: 3 }, { assignee: {} }), { token: admin });
    expect(JSON.stringify(nested.body)).not.toMatch(/scrypt|password/);
  });
});

describe('system.Schema.describe', () => {
  it('describes apps, models, fields with lookups, controllers and limits', async () => {
    const res = await t.post({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } });
    expect(res.status).toBe(200);
    const d = res.body.__payload__;
    expect(d.mode).toBe('development');
    expect(d.limits).toMatchObject({ defaultLimit: 100, maxLimit: 1000 });
    const ticket = d.apps.tickets.models.Ticket;
    expect(ticket.fields.title).toMatchObject({ type: 'string', required: true, maxLength: 200 });
    expect(ticket.fields.priority.lookups).toEqual(expect.arrayContaining(['gte', 'in', 'range']));
    expect(ticket.fields.assignee).toMatchObject({ type: 'ref', to: 'system.User' });
    expect(ticket.relations.documents).toEqual({ many: 'tickets.Document', via: 'ticket' });
    expect(ticket.intents).toContain('retrieveOne');
    expect(d.apps.system.controllers.User.intents).toEqual(['login', 'logout', 'verifyAuthentication']);
    expect(d.apps.system.models.User.fields.password).toMatchObject({ writeOnly: true });
    expect(d.apps.chat.collections.Message).toBeDefined();
  });

  it('says unknown_intent for a controller intent without a handler', async () => {
    const res = await t.post({ __meta__: { namespace: 'system.Schema', intent: 'explode', schema: 'controller' } });
    expect(res.status).toBe(400);
    expect(res.body.__errors__[0].code).toBe('unknown_intent');
  });
});
