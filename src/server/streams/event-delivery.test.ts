// EventDelivery remembers the frame it gave last, so that the subscribers of one view skip the
// lookups: the memory must never hand one view's or one subscription id's frame to another, in any
// order the subscriptions come in (a hub iterates them in the order they subscribed).
import { describe, expect, it } from 'vitest';
import type { SqlSession } from '../db/sql-session.ts';
import type { LoggedEvent } from './event-log.ts';
import { EventDelivery } from './fanout.ts';
import type { RecordView } from './views.ts';

const event: LoggedEvent = { seq: 7, at: '2026-11-25T00:00:00.000Z', namespace: 'shop.Item', schema: 'model', event: 'created', recordId: 1, row: { id: 1, name: 'lamp', price: 12 } };

function view(key: string, fields: string[]): RecordView & { renders: number } {
  const v = {
    key,
    matchKey: null,
    renders: 0,
    matches: () => true,
    render: (e: LoggedEvent) => {
      v.renders += 1;
      return Object.fromEntries(fields.map((f) => [f, (e.row as Record<string, unknown>)[f] ?? null])) as never;
    },
  };
  return v;
}

describe('EventDelivery.frame', () => {
  it('gives each view and subscription id its own frame, whatever order they are asked in, rendering each view once', () => {
    const delivery = new EventDelivery(event, {} as SqlSession);
    const narrow = view('narrow', ['id', 'name']);
    const wide = view('wide', ['id', 'name', 'price']);
    const text = (id: string, v: RecordView | null) => JSON.parse(delivery.frame(id, v)!.payload.toString());
    const order: Array<[string, RecordView]> = [['s', narrow], ['s', wide], ['s', narrow], ['t', narrow], ['s', narrow], ['t', wide], ['s', wide]];
    for (const [id, v] of order) {
      const message = text(id, v);
      expect(message.subscription).toBe(id);
      expect(message.record).toEqual(v === narrow ? { id: 1, name: 'lamp' } : { id: 1, name: 'lamp', price: 12 });
    }
    // The same (view, id) is the same buffer, however far apart it was asked for.
    expect(delivery.frame('s', narrow)).toBe(delivery.frame('s', narrow));
    expect(delivery.frame('s', narrow)).not.toBe(delivery.frame('t', narrow));
    expect(delivery.frame('s', narrow)).not.toBe(delivery.frame('s', wide));
    expect(narrow.renders).toBe(1);
    expect(wide.renders).toBe(1);
  });

  it('answers a custom event only with the controller’s record, not a view’s frame remembered before it', () => {
    const custom: LoggedEvent = { ...event, row: null, custom: { record: { hello: 'world' } } };
    const delivery = new EventDelivery(custom, {} as SqlSession);
    expect(JSON.parse(delivery.frame('s', null)!.payload.toString()).record).toEqual({ hello: 'world' });
  });
});
