// Hostile subscribe messages on /jql-streams: oversized filters and field selections, injection in
// paths, wrong types. Each is answered with a documented error message on an open connection (or a
// subscription that then delivers correctly), never an internal error, and events keep flowing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from '../../shared/error-codes.ts';
import { StreamClient, startStreamServer, type StreamServer } from '../testing/stream-client.ts';
import { writeWorkspace } from '../testing/fixture.ts';

const OPEN = { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] };
let s: StreamServer;
beforeAll(async () => {
  s = await startStreamServer({
    workspace: writeWorkspace({
      apps: {
        shop: { models: { Item: { fields: { name: { type: 'string', required: true } }, permissions: OPEN } }, collections: { Note: { permissions: OPEN } } },
      },
    }),
  });
});
afterAll(() => s.close());

describe('stream subscribe input', () => {
  it('answers oversized and hostile subscriptions with documented errors, and keeps delivering', async () => {
    const client = await StreamClient.connect(s.wsUrl);
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`a${i}.b`, i]));
    const attempts: Array<Record<string, unknown>> = [
      { namespace: 'shop.Note', schema: 'nosql', filter: many },
      { namespace: 'shop.Item', filter: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`name__${i % 2 ? 'icontains' : 'ne'}`, `x${i}`])) },
      { namespace: 'shop.Item', filter: { 'name"; DROP TABLE "shop.Item"; --': 1 } },
      { namespace: 'shop.Note', schema: 'nosql', filter: { [`a') OR 1=1 --`]: 1 } },
      { namespace: 'shop.Item', filter: { name__icontains: 'x'.repeat(20_000) } },
      { namespace: 'shop.Item', fields: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`f${i}`, null])) },
      { namespace: 'shop.Item', since: -5 },
      { namespace: 'shop.Item', since: 'x' },
      { namespace: 'shop.Item', events: ['created', 'exploded'] },
      { namespace: 'shop.Nope' },
    ];
    let n = 0;
    for (const attempt of attempts) {
      const answer = await client.subscribe({ id: `h${n++}`, ...attempt });
      if (answer.type === 'error') {
        expect(isErrorCode(answer.error.code), JSON.stringify(answer)).toBe(true);
        expect(answer.error.code, JSON.stringify(attempt).slice(0, 200)).not.toBe('internal_error');
      }
    }
    // The connection and the server still work: a plain subscription gets the next event.
    await client.subscribe({ id: 'ok', namespace: 'shop.Item' });
    expect((await s.post({ __meta__: { namespace: 'shop.Item', intent: 'create' }, name: 'after' })).status).toBe(200);
    const [event] = await client.events('ok', 1);
    expect(event.record).toMatchObject({ name: 'after' });
    // A note event reaches the hostile nosql subscriptions' filters too: still no internal error.
    expect((await s.post({ __meta__: { namespace: 'shop.Note', schema: 'nosql', intent: 'create' }, a0: { b: 0 } })).status).toBe(200);
    await client.roundTrip();
    // Thousands of document paths are refused when subscribing, not accepted and then never matched.
    expect(client.messages.find((m: any) => m.id === 'h0')).toMatchObject({ type: 'error', error: { code: 'invalid_request' } });
    // No subscription above crashed delivery either: every error seen was documented.
    for (const message of client.messages.filter((m: any) => m.type === 'error')) expect(message.error.code).not.toBe('internal_error');
    await client.close();
  });
});
