import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ENV, item, writeStreamsWorkspace } from '../testing/streams-workspace.ts';
import { startStreamServer, StreamClient, type StreamServer } from '../testing/stream-client.ts';

let s: StreamServer;
beforeAll(async () => {
  s = await startStreamServer({ workspace: writeStreamsWorkspace(), env: ADMIN_ENV });
});
afterAll(() => s.close());

const create = async (data: Record<string, unknown>) => {
  const res = await s.post(item('create', data));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.__payload__ as { id: number };
};

describe('subscribe and live events', () => {
  it('answers subscribed with the latest seq, then created/updated/deleted in order', async () => {
    const c = await StreamClient.connect(s.wsUrl);
    const subscribed = await c.subscribe({ id: 's1', namespace: 'shop.Item', schema: 'model' });
    expect(subscribed).toEqual({ type: 'subscribed', id: 's1', seq: expect.any(Number) });
    const { id } = await create({ name: 'kettle', price: 30 });
    await s.post(item('update', { price: 35 }, { uniqueObject: { id } }));
    await s.post(item('delete', {}, { uniqueObject: { id } }));
    const events = await c.events('s1', 3);
    expect(events.map((e) => [e.event, e.seq])).toEqual([
      ['created', subscribed.seq + 1],
      ['updated', subscribed.seq + 2],
      ['deleted', subscribed.seq + 3],
    ]);
    expect(events[0]).toMatchObject({ type: 'event', namespace: 'shop.Item', record: { id, name: 'kettle', price: 30, category: null } });
    expect(new Date(events[0].at).toISOString()).toBe(events[0].at);
    expect(events[1].record).toMatchObject({ id, price: 35 });
    expect(events[2].record).toEqual({ id });
    await c.close();
  });

  it('applies events, filter (with references and camelCase keys) and fields to each subscription', async () => {
    const tools = (await s.post({ __meta__: { namespace: 'shop.Category', intent: 'create' }, name: 'tools' })).body.__payload__;
    const toys = (await s.post({ __meta__: { namespace: 'shop.Category', intent: 'create' }, name: 'toys' })).body.__payload__;
    const c = await StreamClient.connect(s.wsUrl);
    await c.subscribe({
      id: 'cheap-tools',
      namespace: 'shop.Item',
      events: ['created'],
      filter: { price__lt: 10, 'category.name': 'tools', name__icontains: 'HAM' },
      fields: { name: null, category: { name: null } },
    });
    await c.subscribe({ id: 'updates', namespace: 'shop.Item', events: ['updated'], filter: { uniqueCode__isnull: false } });
    const hammer = await create({ name: 'Hammer', price: 5, category: tools.id, unique_code: 'H1' });
    await create({ name: 'Hammer XL', price: 50, category: tools.id });
    await create({ name: 'hammer toy', price: 3, category: toys.id });
    await create({ name: 'Sledgehammer', price: 9, category: tools.id });
    await s.post(item('update', { price: 6 }, { uniqueObject: { id: hammer.id } }));
    await c.roundTrip();
    const cheap = c.messages.filter((m) => m.subscription === 'cheap-tools');
    expect(cheap.map((e) => e.record)).toEqual([
      { id: hammer.id, name: 'Hammer', category: { id: tools.id, name: 'tools' } },
      { id: hammer.id + 3, name: 'Sledgehammer', category: { id: tools.id, name: 'tools' } },
    ]);
    const updates = c.messages.filter((m) => m.subscription === 'updates');
    expect(updates.map((e) => [e.event, e.record.id, e.record.price])).toEqual([['updated', hammer.id, 6]]);
    await c.close();
  });

  it('never sends writeOnly values, and refuses to select them', async () => {
    const c = await StreamClient.connect(s.wsUrl);
    await c.subscribe({ id: 'all', namespace: 'shop.Item' });
    const refused = await c.subscribe({ id: 'secret', namespace: 'shop.Item', fields: { secret: null } });
    expect(refused).toMatchObject({ type: 'error', id: 'secret', error: { code: 'unknown_field' } });
    const { id } = await create({ name: 'safe', secret: 'do-not-leak' });
    await s.post(item('update', { secret: 'still-not' }, { uniqueObject: { id } }));
    const events = await c.events('all', 2);
    for (const event of events) expect(event.record).not.toHaveProperty('secret');
    expect(JSON.stringify(c.messages)).not.toContain('leak');
    expect(JSON.stringify(c.messages)).not.toContain('still-not');
    await c.close();
  });

  it('unsubscribe stops the events of that subscription only', async () => {
    const c = await StreamClient.connect(s.wsUrl);
    await c.subscribe({ id: 'a', namespace: 'shop.Item' });
    await c.subscribe({ id: 'b', namespace: 'shop.Item' });
    c.send({ type: 'unsubscribe', id: 'a' });
    await c.waitFor((m) => m.type === 'unsubscribed' && m.id === 'a');
    await create({ name: 'after unsubscribe' });
    await c.events('b', 1);
    await c.roundTrip();
    expect(c.messages.filter((m) => m.subscription === 'a')).toEqual([]);
    c.send({ type: 'unsubscribe', id: 'a' });
    expect(await c.waitFor((m) => m.type === 'error' && m.id === 'a')).toMatchObject({ error: { code: 'invalid_request' } });
    await c.close();
  });

  it('streams nosql documents with document-path filters and top-level fields', async () => {
    const token = await s.login('root', 'root-password-1');
    const c = await StreamClient.connect(s.wsUrl, { headers: { authorization: `Bearer ${token}` } });
    await c.subscribe({ id: 'm', namespace: 'chat.Message', schema: 'nosql', filter: { 'author.name__startswith': 'A' }, fields: { text: null } });
    const message = (text: string, name: string) => s.post({ __meta__: { namespace: 'chat.Message', schema: 'nosql', intent: 'create' }, text, author: { name } }, token);
    const first = (await message('hello', 'Ada')).body.__payload__;
    await message('ignored', 'Bob');
    await s.post({ __meta__: { namespace: 'chat.Message', schema: 'nosql', intent: 'delete', uniqueObject: { id: first.id } } }, token);
    const events = await c.events('m', 2);
    expect(events.map((e) => [e.event, e.record])).toEqual([
      ['created', { id: first.id, text: 'hello' }],
      ['deleted', { id: first.id }],
    ]);
    await c.close();
  });
});

describe('rolled-back writes', () => {
  it('an atomic multi-query that fails emits nothing, and takes no sequence number', async () => {
    await create({ name: 'taken', unique_code: 'TAKEN' });
    const c = await StreamClient.connect(s.wsUrl);
    const { seq } = await c.subscribe({ id: 'x', namespace: 'shop.Item' });
    const res = await s.post({
      __root_meta__: { atomic: true },
      one: item('create', { name: 'rolled back 1' }),
      two: item('create', { name: 'rolled back 2' }),
      three: item('create', { name: 'conflict', unique_code: 'TAKEN' }),
    });
    expect(res.body.__payload__.one.errors[0].code).toBe('rolled_back');
    const { id } = await create({ name: 'committed' });
    const [event] = await c.events('x', 1);
    await c.roundTrip();
    expect(c.messages.filter((m) => m.type === 'event')).toHaveLength(1);
    expect(event).toMatchObject({ event: 'created', seq: seq + 1, record: { id, name: 'committed' } });
    await c.close();
  });

  it('a controller that throws after writing emits nothing', async () => {
    const c = await StreamClient.connect(s.wsUrl);
    await c.subscribe({ id: 'x', namespace: 'shop.Item' });
    const res = await s.post({ __meta__: { namespace: 'shop.Tools', schema: 'controller', intent: 'fail' }, name: 'ghost' });
    expect(res.status).toBe(500);
    await create({ name: 'real' });
    await c.events('x', 1);
    await c.roundTrip();
    expect(c.messages.filter((m) => m.type === 'event').map((e) => e.record.name)).toEqual(['real']);
    await c.close();
  });

  it('a controller custom event reaches subscriptions that take every event of the namespace', async () => {
    const c = await StreamClient.connect(s.wsUrl);
    await c.subscribe({ id: 'every', namespace: 'shop.Item' });
    await c.subscribe({ id: 'created-only', namespace: 'shop.Item', events: ['created'] });
    await s.post({ __meta__: { namespace: 'shop.Tools', schema: 'controller', intent: 'shout' }, words: 'hi' });
    const [event] = await c.events('every', 1);
    expect(event).toMatchObject({ event: 'shouted', namespace: 'shop.Item', record: { id: 0, words: 'hi' } });
    await c.roundTrip();
    expect(c.messages.filter((m) => m.subscription === 'created-only')).toEqual([]);
    await c.close();
  });
});

describe('errors keep the connection open', () => {
  it('answers unknown namespace, bad messages and bad filters with coded errors, then still pongs', async () => {
    const c = await StreamClient.connect(s.wsUrl);
    expect(await c.subscribe({ id: 'n', namespace: 'shop.Nope' })).toMatchObject({ type: 'error', id: 'n', error: { code: 'unknown_namespace' } });
    expect(await c.subscribe({ id: 'n2', namespace: 'shop.Item', schema: 'nosql' })).toMatchObject({ error: { code: 'unknown_namespace' } });
    expect(await c.subscribe({ id: 'f', namespace: 'shop.Item', filter: { nope: 1 } })).toMatchObject({ error: { code: 'unknown_field' } });
    expect(await c.subscribe({ id: 'l', namespace: 'shop.Item', filter: { name__near: 'x' } })).toMatchObject({ error: { code: 'invalid_lookup' } });
    expect(await c.subscribe({ id: 'v', namespace: 'shop.Item', filter: { price: 'cheap' } })).toMatchObject({ error: { code: 'invalid_request' } });
    expect(await c.subscribe({ id: 'e', namespace: 'shop.Item', events: ['made'] })).toMatchObject({ error: { code: 'invalid_request' } });
    expect(await c.subscribe({ id: 'k', namespace: 'shop.Item', colour: 'red' })).toMatchObject({ error: { code: 'invalid_request' } });
    expect(await c.subscribe({ id: 'dup', namespace: 'shop.Item' })).toMatchObject({ type: 'subscribed' });
    const again = await c.subscribe({ id: 'dup', namespace: 'shop.Item' });
    expect(again).toMatchObject({ type: 'error', error: { code: 'invalid_request', message: expect.stringContaining('already exists') } });
    c.send('not json');
    expect(await c.waitFor((m) => m.type === 'error' && m.error.code === 'invalid_json')).toMatchObject({ id: null });
    c.send({ type: 'dance' });
    expect(await c.waitFor((m) => m.type === 'error' && m.error.message.includes('"type"'))).toMatchObject({ id: null, error: { code: 'invalid_request' } });
    c.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    await c.waitFor((m) => m.type === 'error' && m.error.message.includes('text frames'));
    await c.roundTrip();
    expect(c.socket.readyState).toBe(c.socket.OPEN);
    await c.close();
  });
});

describe('heartbeat', () => {
  it('terminates a peer that stops answering pings and keeps one that answers', async () => {
    const fast = await startStreamServer({ workspace: writeStreamsWorkspace(), streams: { heartbeatMs: 50 } });
    try {
      const healthy = await StreamClient.connect(fast.wsUrl);
      const dead = await StreamClient.connect(fast.wsUrl, { autoPong: false });
      const closed = await dead.closed;
      expect(closed.code).toBe(1006);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await healthy.roundTrip();
      expect(healthy.socket.readyState).toBe(healthy.socket.OPEN);
      await healthy.close();
    } finally {
      await fast.close();
    }
  });
});

describe('plain HTTP', () => {
  it('a GET without an upgrade is told the endpoint is a WebSocket', async () => {
    const response = await fetch(`${s.server.url}/jql-streams`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as any;
    expect(body.__errors__[0]).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('WebSocket') });
  });
});
