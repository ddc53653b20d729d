// Issue 30.7: a stream stops delivering at its token's `exp`, not at the next 30 s heartbeat. Over a
// real WebSocket: a token that lives a second or two ends the subscriptions with `unauthenticated`
// at its expiry with no event to provoke it, and a clock that jumps past `exp` (before any timer
// could fire) delivers no event written after it.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueToken } from '../auth/tokens.ts';
import { ADMIN, ADMIN_ENV, writeStreamsWorkspace } from '../testing/streams-workspace.ts';
import { startStreamServer, StreamClient, type StreamServer } from '../testing/stream-client.ts';

let s: StreamServer;
let workspace: string;
let admin: string;
let agentId: number;
beforeAll(async () => {
  workspace = writeStreamsWorkspace();
  s = await startStreamServer({ workspace, env: ADMIN_ENV });
  admin = await s.login(ADMIN.username, ADMIN.password);
  const res = await s.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'short-lived', password: 'short-lived-password', roles: ['agent'] }, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  agentId = res.body.__payload__.id as number;
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await s.close();
  rmSync(dirname(workspace), { recursive: true, force: true });
});

const createNote = async (title: string) => (await s.post({ __meta__: { namespace: 'crm.Note', intent: 'create' }, title, owner: agentId }, admin)).body.__payload__ as { id: number };
const eventIds = (c: StreamClient) => c.messages.filter((m) => m.type === 'event' && m.subscription === 'notes').map((m) => m.record.id as number);

describe('a stream signed in with a token', () => {
  it('ends its subscriptions with unauthenticated at the token\'s exp, with no event to provoke it', async () => {
    const { token, expiresAt } = await issueToken(s.server.state.secret, { id: agentId }, 2);
    const c = await StreamClient.connect(s.wsUrl, { headers: { authorization: `Bearer ${token}` } });
    expect(await c.subscribe({ id: 'notes', namespace: 'crm.Note' })).toMatchObject({ type: 'subscribed' });
    const before = await createNote('before expiry');
    expect(await c.events('notes', 1)).toMatchObject([{ record: { id: before.id } }]);
    const ended = await c.waitFor((m) => m.type === 'error' && m.id === 'notes', 0, 4000);
    expect(ended.error.code).toBe('unauthenticated');
    // Ended at the expiry (to the second the token states it in), long before a heartbeat.
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
    expect(Date.now()).toBeLessThan(expiresAt.getTime() + 1500);
    await createNote('after expiry');
    await c.roundTrip();
    expect(eventIds(c)).toEqual([before.id]);
    await c.close();
  });

  it('delivers nothing written after a clock jump past exp, before any timer fires', async () => {
    const { token } = await issueToken(s.server.state.secret, { id: agentId }, 600);
    const c = await StreamClient.connect(s.wsUrl, { headers: { authorization: `Bearer ${token}` } });
    expect(await c.subscribe({ id: 'notes', namespace: 'crm.Note' })).toMatchObject({ type: 'subscribed' });
    const before = await createNote('before the jump');
    expect(await c.events('notes', 1)).toMatchObject([{ record: { id: before.id } }]);
    const now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => now + 601_000);
    await createNote('after the jump');
    const ended = await c.waitFor((m) => m.type === 'error' && m.id === 'notes');
    expect(ended.error.code).toBe('unauthenticated');
    expect(eventIds(c)).toEqual([before.id]);
    await c.close();
  });
});
