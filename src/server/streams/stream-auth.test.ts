/**
 * The `auth` first message of `/jql-streams` over a real socket: the token travels in a message, not
 * in the URL, and the identity it proves is the one later subscribes run as.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_ENV, writeStreamsWorkspace } from '../testing/streams-workspace.ts';
import { startStreamServer, StreamClient, type StreamServer } from '../testing/stream-client.ts';

let s: StreamServer;
let admin: string;
let agent: { id: number; token: string };

beforeAll(async () => {
  s = await startStreamServer({ workspace: writeStreamsWorkspace(), env: ADMIN_ENV, streams: { heartbeatMs: 50 } });
  admin = await s.login(ADMIN.username, ADMIN.password);
  const created = await s.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'ada', password: 'ada-password', roles: ['agent'] }, admin);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  agent = { id: created.body.__payload__.id, token: await s.login('ada', 'ada-password') };
});
afterAll(() => s.close());

/** Sends `auth` and waits for its answer (`authenticated`, or an error with id null). */
async function authenticate(c: StreamClient, token: unknown): Promise<any> {
  const from = c.messages.length;
  c.send({ type: 'auth', token });
  return c.waitFor((m) => m.type === 'authenticated' || (m.type === 'error' && m.id === null), from);
}

describe('the auth message', () => {
  it('answers authenticated with the user, and later subscribes run as that user', async () => {
    const c = await StreamClient.connect(s.wsUrl);
    // Anonymous first: crm.Note is for agents and admins.
    expect(await c.subscribe({ id: 'before', namespace: 'crm.Note' })).toMatchObject({ type: 'error', error: { code: 'unauthenticated' } });
    expect(await authenticate(c, agent.token)).toEqual({ type: 'authenticated', user: { id: agent.id, username: 'ada' } });
    expect(await c.subscribe({ id: 'notes', namespace: 'crm.Note' })).toMatchObject({ type: 'subscribed', id: 'notes' });
    await c.close();
  });

  it('a bad token keeps the socket open: one error with id null, then unauthenticated for each subscribe', async () => {
    const c = await StreamClient.connect(s.wsUrl);
    expect(await authenticate(c, 'not-a-token')).toMatchObject({ type: 'error', id: null, error: { code: 'unauthenticated' } });
    expect(await c.subscribe({ id: 'open', namespace: 'shop.Item' })).toMatchObject({ type: 'error', id: 'open', error: { code: 'unauthenticated' } });
    // A good token afterwards is taken.
    expect(await authenticate(c, agent.token)).toMatchObject({ type: 'authenticated' });
    expect(await c.subscribe({ id: 'open-again', namespace: 'shop.Item' })).toMatchObject({ type: 'subscribed' });
    await c.close();
  });

  it('refuses a malformed auth message with invalid_request and an auth after a subscribe', async () => {
    const c = await StreamClient.connect(s.wsUrl);
    expect(await authenticate(c, 42)).toMatchObject({ id: null, error: { code: 'invalid_request' } });
    expect(await authenticate(c, 'x'.repeat(9000))).toMatchObject({ id: null, error: { code: 'invalid_request' } });
    const from = c.messages.length;
    c.send({ type: 'auth', token: agent.token, extra: 1 });
    expect(await c.waitFor((m) => m.type === 'error', from)).toMatchObject({ id: null, error: { code: 'invalid_request', message: expect.stringContaining('extra') } });
    await c.subscribe({ id: 'items', namespace: 'shop.Item' });
    expect(await authenticate(c, agent.token)).toMatchObject({ id: null, error: { code: 'invalid_request', message: expect.stringContaining('before the first subscribe') } });
    await c.close();
  });

  it('a logout ends what the message-borne token opened, at the next heartbeat', async () => {
    const token = await s.login('ada', 'ada-password');
    const c = await StreamClient.connect(s.wsUrl);
    await authenticate(c, token);
    expect(await c.subscribe({ id: 'notes', namespace: 'crm.Note' })).toMatchObject({ type: 'subscribed' });
    const out = await s.post({ __meta__: { namespace: 'system.User', intent: 'logout', schema: 'controller' } }, token);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(await c.waitFor((m) => m.type === 'error' && m.id === 'notes')).toMatchObject({ error: { code: 'unauthenticated' } });
    await c.close();
  });

  it('keeps ?token= working for other clients', async () => {
    const c = await StreamClient.connect(`${s.wsUrl}?token=${encodeURIComponent(agent.token)}`);
    expect(await c.subscribe({ id: 'notes', namespace: 'crm.Note' })).toMatchObject({ type: 'subscribed' });
    await c.close();
  });
});
