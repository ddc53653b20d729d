// Date and date-time filters (docs/protocol.md "`__meta__` keys", "Streams"): a filter value is checked and normalized by the
// codec that stores values, in queries over HTTP and in stream subscriptions over WebSocket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, writeWorkspace } from '../testing/fixture.ts';
import { startStreamServer, StreamClient, type StreamServer } from '../testing/stream-client.ts';

const book = (intent: string, meta: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({ __meta__: { namespace: 'lib.Book', intent, ...meta }, ...data });
const titles = (body: any): string[] => (body.__payload__ as Array<{ title: string }>).map((record) => record.title);

let s: StreamServer;
beforeAll(async () => {
  s = await startStreamServer({ workspace: writeWorkspace(LIBRARY_WORKSPACE) });
  const created = await s.post(book('create', {}, { title: 'Due at ten in Athens', published_at: '2030-01-01T10:00:00+02:00' }));
  expect(created.body.__payload__.published_at).toBe('2030-01-01T08:00:00.000Z');
  await s.post(book('create', {}, { title: 'Due at noon UTC', published_at: '2030-01-01T12:00:00Z' }));
  await s.post(book('create', {}, { title: 'Undated' }));
});
afterAll(() => s.close());

describe('date-time filters', () => {
  it('find a record by the value it was written with, in any offset', async () => {
    for (const value of ['2030-01-01T10:00:00+02:00', '2030-01-01T08:00:00Z', '2030-01-01T08:00Z', '2029-12-31T23:00:00-09:00']) {
      expect(titles((await s.post(book('retrieve', { filter: { published_at: value } }))).body), value).toEqual(['Due at ten in Athens']);
    }
  });

  it('order by instant in every comparison lookup', async () => {
    const find = async (filter: Record<string, unknown>) => titles((await s.post(book('retrieve', { filter, ordering: ['published_at'] }))).body);
    expect(await find({ published_at__gte: '2030-01-01T09:00:00+02:00' })).toEqual(['Due at ten in Athens', 'Due at noon UTC']);
    expect(await find({ published_at__gt: '2030-01-01T10:00:00+02:00' })).toEqual(['Due at noon UTC']);
    expect(await find({ published_at__lt: '2030-01-01T13:00:00+02:00' })).toEqual(['Due at ten in Athens']);
    expect(await find({ published_at__lte: '2030-01-01T08:00:00.000+00:00' })).toEqual(['Due at ten in Athens']);
    expect(await find({ published_at__range: ['2030-01-01T11:00:00+02:00', '2030-01-01T14:00:00+02:00'] })).toEqual(['Due at noon UTC']);
    expect(await find({ published_at__in: ['2030-01-01T13:00:00+01:00'] })).toEqual(['Due at noon UTC']);
    expect(await find({ published_at__ne: '2030-01-01T10:00:00+02:00' })).toEqual(['Undated', 'Due at noon UTC']);
  });

  it('refuse a value that is not a date-time with invalid_request, naming the entry', async () => {
    for (const filter of [{ published_at__gte: 'tomorrow' }, { published_at: '2030-01-01' }, { published_at__range: ['2030-01-01T00:00Z', 'later'] }, { published_at__in: ['2030-02-30T00:00Z'] }]) {
      const res = await s.post(book('retrieve', { filter }));
      expect(res.status, JSON.stringify(filter)).toBe(400);
      const key = Object.keys(filter)[0] as string;
      expect(res.body.__errors__[0]).toMatchObject({ code: 'invalid_request', path: ['filter', key], message: expect.stringMatching(/time zone/) });
    }
    const excluded = await s.post(book('retrieve', { exclude: { published_at__lt: 'yesterday' } }));
    expect(excluded.body.__errors__[0]).toMatchObject({ code: 'invalid_request', path: ['exclude', 'published_at__lt'] });
  });

  it('a write refuses what a filter refuses', async () => {
    const res = await s.post(book('create', {}, { title: 'Bad', published_at: '2030-01-01T10:00' }));
    expect(res.status).toBe(422);
    expect(res.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'published_at' });
  });
});

describe('date filters', () => {
  it('refuse an impossible day in filters and in writes', async () => {
    const filter = await s.post({ __meta__: { namespace: 'lib.Author', intent: 'retrieve', filter: { born__gte: '2030-02-30' } } });
    expect(filter.body.__errors__[0]).toMatchObject({ code: 'invalid_request', path: ['filter', 'born__gte'] });
    const write = await s.post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'Nobody', born: '2030-02-30' });
    expect(write.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'born' });
  });
});

describe('stream filters', () => {
  it('normalize date-times like queries, and refuse what queries refuse', async () => {
    const client = await StreamClient.connect(s.wsUrl);
    try {
      expect(await client.subscribe({ id: 'bad', namespace: 'lib.Book', filter: { published_at__gte: 'tomorrow' } })).toMatchObject({
        type: 'error',
        error: { code: 'invalid_request' },
      });
      expect(await client.subscribe({ id: 'late', namespace: 'lib.Book', filter: { published_at__gte: '2031-01-01T09:00:00+02:00' }, fields: { title: null } })).toMatchObject({
        type: 'subscribed',
      });
      await s.post(book('create', {}, { title: 'Too early', published_at: '2031-01-01T06:59:00Z' }));
      await s.post(book('create', {}, { title: 'Just in time', published_at: '2031-01-01T07:00:00Z' }));
      const [event] = await client.events('late', 1);
      expect(event.record.title).toBe('Just in time');
      await client.roundTrip();
      expect(client.messages.filter((m) => m.type === 'event')).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
