// Issue 15 point 6 (docs/protocol.md "Streams"): a change of roles, is_active, password, or a logout applies to the
// user's open subscriptions before the next event is delivered. Over a real WebSocket, with the
// default 30 s heartbeat (which must not be what ends them) and no waiting beyond the events.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, writeStreamsWorkspace } from '../testing/streams-workspace.ts';
import { startStreamServer, StreamClient, type StreamServer } from '../testing/stream-client.ts';

let s: StreamServer;
let workspace: string;
let admin: string;
beforeAll(async () => {
  workspace = writeStreamsWorkspace();
  s = await startStreamServer({ workspace, env: ADMIN_ENV });
  admin = await s.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await s.close();
  rmSync(dirname(workspace), { recursive: true, force: true });
});

let serial = 0;
async function member(roles: string[]): Promise<{ id: number; username: string; password: string; token: string }> {
  const username = `member${++serial}`;
  const password = `${username}-password`;
  const res = await s.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username, password, roles }, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.__payload__.id, username, password, token: await s.login(username, password) };
}

const updateUser = async (id: number, data: Record<string, unknown>) => {
  const res = await s.post({ __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id } }, ...data }, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const createNote = async (title: string, owner: number) => (await s.post({ __meta__: { namespace: 'crm.Note', intent: 'create' }, title, owner }, admin)).body.__payload__ as { id: number };
const createItem = async (name: string) => (await s.post({ __meta__: { namespace: 'shop.Item', intent: 'create' }, name })).body.__payload__ as { id: number };
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** The events of a subscription, once every message the server sent so far has arrived. */
async function eventsOf(c: StreamClient, subscription: string): Promise<Array<[string, number]>> {
  await c.roundTrip();
  return c.messages.filter((m) => m.type === 'event' && m.subscription === subscription).map((e) => [e.event, e.record.id]);
}

async function sessionCookie(username: string, password: string): Promise<string> {
  const response = await fetch(`${s.server.url}/jql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller', authenticationClass: 'session' }, username, password }),
  });
  return (response.headers.getSetCookie().find((c) => c.startsWith('jql_session=')) as string).split(';')[0] as string;
}

/**
 * Subscribes the client to the user's notes, proves one event arrives, applies the change, and
 * checks the subscription ended with `code` before the next note (the user's own) was delivered.
 */
async function endsAfter(c: StreamClient, user: { id: number }, change: () => Promise<unknown>, code: 'unauthenticated' | 'forbidden') {
  expect(await c.subscribe({ id: 'notes', namespace: 'crm.Note' })).toMatchObject({ type: 'subscribed' });
  const before = await createNote('before', user.id);
  expect(await c.events('notes', 1)).toMatchObject([{ record: { id: before.id } }]);
  await change();
  const after = await createNote('after', user.id);
  expect(await eventsOf(c, 'notes')).toEqual([['created', before.id]]);
  expect(c.messages.some((m) => m.type === 'event' && m.record.id === after.id)).toBe(false);
  expect(c.messages.filter((m) => m.type === 'error' && m.id === 'notes')).toMatchObject([{ error: { code } }]);
}

describe('subscriptions follow the user', () => {
  it('a role taken away ends the subscriptions the user may no longer hold with forbidden, before the next event', async () => {
    const user = await member(['agent']);
    const c = await StreamClient.connect(s.wsUrl, bearer(user.token));
    // A namespace open to anyone stays subscribed: only what the user lost is taken.
    await c.subscribe({ id: 'items', namespace: 'shop.Item' });
    await endsAfter(c, user, () => updateUser(user.id, { roles: [] }), 'forbidden');
    const item = await createItem('still open');
    expect(await eventsOf(c, 'items')).toEqual([['created', item.id]]);
    await c.close();
  });

  it('a narrower row scope narrows what the subscription gets from the next event on', async () => {
    const user = await member(['agent', 'admin']);
    const other = await member([]);
    const c = await StreamClient.connect(s.wsUrl, bearer(user.token));
    await c.subscribe({ id: 'notes', namespace: 'crm.Note' });
    const othersBefore = await createNote('not hers, seen as admin', other.id);
    expect(await c.events('notes', 1)).toMatchObject([{ record: { id: othersBefore.id } }]);
    await updateUser(user.id, { roles: ['agent'] });
    await createNote('not hers, unseen as agent', other.id);
    const hers = await createNote('hers', user.id);
    expect(await eventsOf(c, 'notes')).toEqual([
      ['created', othersBefore.id],
      ['created', hers.id],
    ]);
    expect(c.messages.filter((m) => m.type === 'error')).toEqual([]);
    await c.close();
  });

  it('a logout of the token the socket signed in with (auth message) ends its subscriptions with unauthenticated', async () => {
    const user = await member(['agent']);
    const c = await StreamClient.connect(s.wsUrl);
    c.send({ type: 'auth', token: user.token });
    await c.waitFor((m) => m.type === 'authenticated');
    await endsAfter(c, user, () => s.post({ __meta__: { namespace: 'system.User', intent: 'logout', schema: 'controller' } }, user.token), 'unauthenticated');
    expect(await c.subscribe({ id: 'again', namespace: 'shop.Item' })).toMatchObject({ type: 'error', error: { code: 'unauthenticated' } });
    await c.close();
  });

  it('a logout of the session cookie the socket came with ends its subscriptions', async () => {
    const user = await member(['agent']);
    const cookie = await sessionCookie(user.username, user.password);
    const c = await StreamClient.connect(s.wsUrl, { headers: { cookie } });
    const logout = () =>
      fetch(`${s.server.url}/jql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ __meta__: { namespace: 'system.User', intent: 'logout', schema: 'controller', authenticationClass: 'session' } }),
      });
    await endsAfter(c, user, logout, 'unauthenticated');
    await c.close();
  });

  it('a password change ends them', async () => {
    const user = await member(['agent']);
    const c = await StreamClient.connect(s.wsUrl, bearer(user.token));
    await endsAfter(c, user, () => updateUser(user.id, { password: 'another-password' }), 'unauthenticated');
    await c.close();
  });

  it('a deactivation ends them', async () => {
    const user = await member(['agent']);
    const c = await StreamClient.connect(s.wsUrl, bearer(user.token));
    await endsAfter(c, user, () => updateUser(user.id, { is_active: false }), 'unauthenticated');
    await c.close();
  });

  it("another user's change leaves a subscription alone", async () => {
    const user = await member(['agent']);
    const other = await member(['agent']);
    const c = await StreamClient.connect(s.wsUrl, bearer(user.token));
    await c.subscribe({ id: 'notes', namespace: 'crm.Note' });
    await updateUser(other.id, { roles: [], password: 'changed' });
    const hers = await createNote('hers', user.id);
    expect(await eventsOf(c, 'notes')).toEqual([['created', hers.id]]);
    expect(c.messages.filter((m) => m.type === 'error')).toEqual([]);
    await c.close();
  });
});
