import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, writeStreamsWorkspace } from '../testing/streams-workspace.ts';
import { startStreamServer, StreamClient, type StreamServer } from '../testing/stream-client.ts';

let s: StreamServer;
let admin: string;
const users: Record<string, { id: number; token: string }> = {};

beforeAll(async () => {
  s = await startStreamServer({ workspace: writeStreamsWorkspace(), env: ADMIN_ENV });
  admin = await s.login(ADMIN.username, ADMIN.password);
  for (const [username, roles] of [['ann', ['agent']], ['bob', ['agent']], ['carl', []]] as const) {
    const res = await s.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username, password: `${username}-password`, roles }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    users[username] = { id: res.body.__payload__.id, token: await s.login(username, `${username}-password`) };
  }
});
afterAll(() => s.close());

const note = (intent: string, data: Record<string, unknown>, meta: Record<string, unknown> = {}) =>
  s.post({ __meta__: { namespace: 'crm.Note', intent, ...meta }, ...data }, admin);
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

async function sessionCookie(username: string, password: string): Promise<string> {
  const response = await fetch(`${s.server.url}/jql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller', authenticationClass: 'session' }, username, password }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('jql_session='));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0] as string;
}

describe('identity', () => {
  it('takes the Bearer header, ?token= and the session cookie', async () => {
    const viaHeader = await StreamClient.connect(s.wsUrl, bearer(users.ann!.token));
    const viaQuery = await StreamClient.connect(`${s.wsUrl}?token=${encodeURIComponent(users.ann!.token)}`);
    const viaCookie = await StreamClient.connect(s.wsUrl, { headers: { cookie: await sessionCookie('ann', 'ann-password') } });
    for (const c of [viaHeader, viaQuery, viaCookie]) {
      expect(await c.subscribe({ id: 'notes', namespace: 'crm.Note' })).toMatchObject({ type: 'subscribed' });
      await c.close();
    }
  });

  it('a bad credential is told at once and refuses subscriptions, the connection staying open', async () => {
    const c = await StreamClient.connect(`${s.wsUrl}?token=not-a-token`);
    expect(await c.waitFor((m) => m.type === 'error')).toMatchObject({ id: null, error: { code: 'unauthenticated' } });
    expect(await c.subscribe({ id: 'open', namespace: 'shop.Item' })).toMatchObject({ type: 'error', id: 'open', error: { code: 'unauthenticated' } });
    await c.roundTrip();
    await c.close();
  });

  it('refuses anonymous callers with unauthenticated and callers without the role with forbidden', async () => {
    const anonymous = await StreamClient.connect(s.wsUrl);
    expect(await anonymous.subscribe({ id: 'n', namespace: 'crm.Note' })).toMatchObject({ error: { code: 'unauthenticated' } });
    expect(await anonymous.subscribe({ id: 'i', namespace: 'shop.Item' })).toMatchObject({ type: 'subscribed' });
    const carl = await StreamClient.connect(s.wsUrl, bearer(users.carl!.token));
    expect(await carl.subscribe({ id: 'n', namespace: 'crm.Note' })).toMatchObject({ error: { code: 'forbidden' } });
    expect(await carl.subscribe({ id: 'm', namespace: 'chat.Message', schema: 'nosql' })).toMatchObject({ error: { code: 'forbidden' } });
    await anonymous.close();
    await carl.close();
  });
});

describe('row scopes and permissions', () => {
  it('delivers a record only to subscribers whose scope holds it, for creates, updates and deletes', async () => {
    const ann = await StreamClient.connect(s.wsUrl, bearer(users.ann!.token));
    const bob = await StreamClient.connect(s.wsUrl, bearer(users.bob!.token));
    const root = await StreamClient.connect(s.wsUrl, bearer(admin));
    for (const c of [ann, bob, root]) await c.subscribe({ id: 'notes', namespace: 'crm.Note', fields: { title: null, owner: { username: null } } });
    const annNote = (await note('create', { title: 'for ann', owner: users.ann!.id })).body.__payload__;
    const bobNote = (await note('create', { title: 'for bob', owner: users.bob!.id })).body.__payload__;
    const nobodys = (await note('create', { title: 'for nobody' })).body.__payload__;
    // ann's note moves to bob: ann no longer reads it, bob now does.
    await note('update', { owner: users.bob!.id }, { uniqueObject: { id: annNote.id } });
    await note('delete', {}, { uniqueObject: { id: bobNote.id } });
    await root.events('notes', 5);
    for (const c of [ann, bob]) await c.roundTrip();
    const seen = (c: StreamClient) => c.messages.filter((m) => m.type === 'event').map((e) => [e.event, e.record.id, e.record.title ?? null]);
    expect(seen(ann)).toEqual([['created', annNote.id, 'for ann']]);
    expect(seen(bob)).toEqual([
      ['created', bobNote.id, 'for bob'],
      ['updated', annNote.id, 'for ann'],
      ['deleted', bobNote.id, null],
    ]);
    expect(seen(root).map(([event, id]) => [event, id])).toEqual([
      ['created', annNote.id],
      ['created', bobNote.id],
      ['created', nobodys.id],
      ['updated', annNote.id],
      ['deleted', bobNote.id],
    ]);
    expect(ann.messages.find((m) => m.type === 'event').record).toEqual({ id: annNote.id, title: 'for ann', owner: { id: users.ann!.id, username: 'ann' } });
    for (const c of [ann, bob, root]) await c.close();
  });

  it('a delete of a row outside the scope is not delivered', async () => {
    const created = (await note('create', { title: 'bob only', owner: users.bob!.id })).body.__payload__;
    const ann = await StreamClient.connect(s.wsUrl, bearer(users.ann!.token));
    const bob = await StreamClient.connect(s.wsUrl, bearer(users.bob!.token));
    for (const c of [ann, bob]) await c.subscribe({ id: 'd', namespace: 'crm.Note', events: ['deleted'] });
    await note('delete', {}, { uniqueObject: { id: created.id } });
    expect((await bob.events('d', 1))[0].record).toEqual({ id: created.id });
    await ann.roundTrip();
    expect(ann.messages.filter((m) => m.type === 'event')).toEqual([]);
    await ann.close();
    await bob.close();
  });

  it('applies collection scopes to documents', async () => {
    const ann = await StreamClient.connect(s.wsUrl, bearer(users.ann!.token));
    await ann.subscribe({ id: 'inbox', namespace: 'chat.Message', schema: 'nosql' });
    const send = (to: string, text: string) => s.post({ __meta__: { namespace: 'chat.Message', schema: 'nosql', intent: 'create' }, to, text }, admin);
    await send('bob', 'not for ann');
    const mine = (await send('ann', 'hi ann')).body.__payload__;
    const [event] = await ann.events('inbox', 1);
    expect(event.record).toMatchObject({ id: mine.id, to: 'ann', text: 'hi ann', created_at: expect.any(String) });
    await ann.roundTrip();
    expect(ann.messages.filter((m) => m.type === 'event')).toHaveLength(1);
    await ann.close();
  });

  it('never sends a user password, even to an admin asking for every field', async () => {
    const root = await StreamClient.connect(s.wsUrl, bearer(admin));
    await root.subscribe({ id: 'users', namespace: 'system.User' });
    await s.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'dana', password: 'dana-very-secret' }, admin);
    await s.post({ __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { username: 'dana' } }, password: 'dana-new-secret' }, admin);
    const events = await root.events('users', 2);
    for (const event of events) {
      expect(event.record).toMatchObject({ username: 'dana' });
      expect(event.record).not.toHaveProperty('password');
    }
    expect(JSON.stringify(root.messages)).not.toMatch(/secret|scrypt/);
    expect(await root.subscribe({ id: 'pw', namespace: 'system.User', fields: { password: null } })).toMatchObject({ error: { code: 'unknown_field' } });
    await root.close();
  });
});

describe('revocation', () => {
  it('a logout ends the subscriptions its token opened, at the next heartbeat', async () => {
    const fast = await startStreamServer({ workspace: writeStreamsWorkspace(), env: ADMIN_ENV, streams: { heartbeatMs: 50 } });
    try {
      const token = await fast.login(ADMIN.username, ADMIN.password);
      const c = await StreamClient.connect(fast.wsUrl, bearer(token));
      await c.subscribe({ id: 'items', namespace: 'shop.Item' });
      const out = await fast.post({ __meta__: { namespace: 'system.User', intent: 'logout', schema: 'controller' } }, token);
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      expect(await c.waitFor((m) => m.type === 'error' && m.id === 'items')).toMatchObject({ error: { code: 'unauthenticated' } });
      await fast.post({ __meta__: { namespace: 'shop.Item', intent: 'create' }, name: 'unseen' });
      await c.roundTrip();
      expect(c.messages.filter((m) => m.type === 'event')).toEqual([]);
      expect(await c.subscribe({ id: 'again', namespace: 'shop.Item' })).toMatchObject({ type: 'error', error: { code: 'unauthenticated' } });
      await c.close();
    } finally {
      await fast.close();
    }
  });
});
