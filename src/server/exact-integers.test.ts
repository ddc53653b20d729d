// 64-bit integers at the edges (docs/protocol.md "Large integers"): what is refused and with which
// code (nothing written), what the SQL trace shows, and the digits a stream event carries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonExact } from './exact-integers.ts';
import { testApp, writeWorkspace, type TestApp } from './testing/fixture.ts';
import { startStreamServer, StreamClient, type StreamServer } from './testing/stream-client.ts';

const ANYONE = { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] };
const WORKSPACE = {
  name: 'exact-integers-edges',
  apps: {
    big: {
      models: {
        Item: {
          fields: { n: { type: 'integer', null: true }, x: { type: 'number', null: true }, self: { type: 'ref', to: 'big.Item', null: true }, tags: { type: 'json', null: true } },
          permissions: ANYONE,
        },
      },
      collections: { Doc: { permissions: ANYONE } },
    },
  },
};
const ITEM = { namespace: 'big.Item' };

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace(WORKSPACE) });
});
afterAll(() => t.close());

/** Posts JSON text as written (digits a double cannot hold included) and reads the answer exactly. */
async function ask(text: string, query = ''): Promise<{ status: number; body: any; text: string }> {
  const response = await t.app.inject({ method: 'POST', url: `/jql${query}`, headers: { 'content-type': 'application/json' }, payload: text });
  return { status: response.statusCode, body: parseJsonExact(response.body), text: response.body };
}

const count = async (): Promise<number> => (await ask(JSON.stringify({ __meta__: { ...ITEM, intent: 'count' } }))).body.__payload__.count as number;

describe('refused, nothing written', () => {
  it.each([
    ['an integer past 2^63 - 1', '"n": 9223372036854775808', 'n must be an integer from -9223372036854775808 to 9223372036854775807'],
    ['an integer below -2^63', '"n": -9223372036854775809', 'n must be an integer from -9223372036854775808 to 9223372036854775807'],
    ['a 20-digit integer', '"n": 12345678901234567890', 'n must be an integer from'],
    ['a reference past 2^63 - 1', '"self": 9223372036854775808', 'self must be a positive integer id (at most 9223372036854775807)'],
    ['an integer a double would round, for a number field', '"x": 9007199254740993', 'x must be a number a double holds exactly'],
  ])('a create with %s is validation_error (422)', async (_what, entry, message) => {
    const before = await count();
    const answer = await ask(`{"__meta__": {"namespace": "big.Item", "intent": "create"}, ${entry}}`);
    expect(answer.status).toBe(422);
    expect(answer.body.__errors__[0].code).toBe('validation_error');
    expect(answer.body.__errors__[0].message).toContain(message);
    expect(await count()).toBe(before);
  });

  it('an update with an integer past the 64-bit range leaves the record as it was', async () => {
    const id = (await ask('{"__meta__": {"namespace": "big.Item", "intent": "create"}, "n": 9007199254740993}')).body.__payload__.id as number;
    const answer = await ask(`{"__meta__": {"namespace": "big.Item", "intent": "update", "uniqueObject": {"id": ${id}}}, "n": 18446744073709551616}`);
    expect(answer.status).toBe(422);
    expect(answer.body.__errors__[0].code).toBe('validation_error');
    const read = await ask(`{"__meta__": {"namespace": "big.Item", "intent": "retrieveOne", "uniqueObject": {"id": ${id}}}}`);
    expect(read.text).toContain('"n":9007199254740993');
  });

  it('a filter value past the 64-bit range is invalid_request (400), not a near match', async () => {
    const answer = await ask('{"__meta__": {"namespace": "big.Item", "intent": "retrieve", "filter": {"n__in": [1, 9223372036854775808]}}}');
    expect(answer.status).toBe(400);
    expect(answer.body.__errors__[0]).toMatchObject({ code: 'invalid_request', path: ['filter', 'n__in'] });
    expect(answer.body.__errors__[0].message).toContain('n takes an integer from -9223372036854775808 to 9223372036854775807');
  });

  it('a number field keeps an integer text a double holds exactly (2^60)', async () => {
    const answer = await ask('{"__meta__": {"namespace": "big.Item", "intent": "create"}, "x": 1152921504606846976}');
    expect(answer.status).toBe(200);
    // Written as JSON.stringify writes that double (1152921504606847000), which parses to 2^60 again.
    expect(Number(answer.body.__payload__.x)).toBe(2 ** 60);
  });
});

describe('digits shown', () => {
  it('the SQL trace shows a bound integer past 2^53 with its digits', async () => {
    const answer = await ask('{"__meta__": {"namespace": "big.Item", "intent": "retrieve", "filter": {"n": -9223372036854775807}}}', '?query_info_level=2');
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"params":[-9223372036854775807,');
  });

  it('a json field keeps the digits of the integers inside it, with and without the stored-text shortcut', async () => {
    const created = await ask('{"__meta__": {"namespace": "big.Item", "intent": "create"}, "tags": {"ids": [9007199254740993, -9223372036854775808]}}');
    expect(created.text).toContain('"tags":{"ids":[9007199254740993,-9223372036854775808]}');
    const plain = await testApp({ workspace: writeWorkspace(WORKSPACE), shortcuts: false });
    try {
      const body = '{"__meta__": {"namespace": "big.Item", "intent": "create"}, "tags": {"ids": [9007199254740993]}}';
      const response = await plain.app.inject({ method: 'POST', url: '/jql', headers: { 'content-type': 'application/json' }, payload: body });
      expect(response.body).toContain('"tags":{"ids":[9007199254740993]}');
    } finally {
      await plain.close();
    }
  });
});

describe('NoSQL documents', () => {
  it('keep the digits of their integers, written and filtered', async () => {
    const created = await ask('{"__meta__": {"namespace": "big.Doc", "intent": "create", "schema": "nosql"}, "n": 9007199254740993}');
    expect(created.status).toBe(200);
    expect(created.text).toContain('"n":9007199254740993');
    await ask('{"__meta__": {"namespace": "big.Doc", "intent": "create", "schema": "nosql"}, "n": 9007199254740992}');
    const found = await ask('{"__meta__": {"namespace": "big.Doc", "intent": "retrieve", "schema": "nosql", "filter": {"n": 9007199254740993}}}');
    expect(found.body.__payload__.map((doc: any) => String(doc.n))).toEqual(['9007199254740993']);
  });
});

describe('streams', () => {
  let s: StreamServer;
  beforeAll(async () => {
    s = await startStreamServer({ workspace: writeWorkspace(WORKSPACE) });
  });
  afterAll(() => s.close());

  it('a subscription filter past 2^53 matches its record only, and the event carries the digits', async () => {
    const client = await StreamClient.connect(s.wsUrl);
    const frames: string[] = [];
    client.socket.on('message', (data) => frames.push(String(data)));
    try {
      // Sent as text: 9007199254740993 as a double is 9007199254740992, the other record's value.
      const from = client.messages.length;
      client.send('{"type": "subscribe", "id": "s", "namespace": "big.Item", "filter": {"n": 9007199254740993}}');
      expect((await client.waitFor((m) => m.id === 's', from)).type).toBe('subscribed');
      const create = (n: string): Promise<Response> =>
        fetch(`${s.server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"__meta__": {"namespace": "big.Item", "intent": "create"}, "n": ${n}}` });
      expect((await create('9007199254740992')).status).toBe(200);
      expect((await create('9007199254740993')).status).toBe(200);
      await client.events('s', 1);
      const events = frames.filter((frame) => frame.includes('"type":"event"'));
      expect(events).toHaveLength(1);
      expect(events[0]).toContain('"n":9007199254740993');
    } finally {
      client.socket.close();
      await client.closed;
    }
  });
});
