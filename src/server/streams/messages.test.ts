import { describe, expect, it } from 'vitest';
import { MessageError, parseClientMessage } from './messages.ts';

const parse = (message: unknown) => parseClientMessage(JSON.stringify(message));
const refusal = (text: string): { id: string | null; code: string } => {
  try {
    parseClientMessage(text);
  } catch (error) {
    if (error instanceof MessageError) return { id: error.id, code: error.code };
    throw error;
  }
  throw new Error('accepted');
};

describe('parseClientMessage', () => {
  it('reads a full subscribe, defaulting schema to model and events to all', () => {
    expect(parse({ type: 'subscribe', id: 's1', namespace: 'tickets.Ticket' })).toEqual({
      type: 'subscribe',
      id: 's1',
      namespace: 'tickets.Ticket',
      schema: 'model',
      events: null,
    });
    const full = parse({ type: 'subscribe', id: 's1', namespace: 'chat.Message', schema: 'nosql', events: ['created', 'deleted'], filter: { a: 1 }, fields: { b: null }, since: 0 });
    expect(full).toMatchObject({ schema: 'nosql', filter: { a: 1 }, fields: { b: null }, since: 0 });
    expect(full.type === 'subscribe' && [...(full.events ?? [])]).toEqual(['created', 'deleted']);
  });

  it('reads unsubscribe and ping', () => {
    expect(parse({ type: 'unsubscribe', id: 's1' })).toEqual({ type: 'unsubscribe', id: 's1' });
    expect(parse({ type: 'ping' })).toEqual({ type: 'ping' });
  });

  it('refuses what it cannot read, keeping the id when there is one', () => {
    expect(refusal('{')).toEqual({ id: null, code: 'invalid_json' });
    expect(refusal('[1]')).toEqual({ id: null, code: 'invalid_request' });
    const cases: Array<Record<string, unknown>> = [
      { type: 'subscribe', id: 's', namespace: '' },
      { type: 'subscribe', id: 's', namespace: 'a.B', schema: 'controller' },
      { type: 'subscribe', id: 's', namespace: 'a.B', events: [] },
      { type: 'subscribe', id: 's', namespace: 'a.B', events: ['created', 'touched'] },
      { type: 'subscribe', id: 's', namespace: 'a.B', filter: [] },
      { type: 'subscribe', id: 's', namespace: 'a.B', fields: 'title' },
      { type: 'subscribe', id: 's', namespace: 'a.B', since: -1 },
      { type: 'subscribe', id: 's', namespace: 'a.B', since: '10' },
      { type: 'subscribe', id: 's', namespace: 'a.B', sinse: 10 },
      { type: 'unsubscribe', id: 's', extra: true },
    ];
    for (const message of cases) expect(refusal(JSON.stringify(message)), JSON.stringify(message)).toEqual({ id: 's', code: 'invalid_request' });
    expect(refusal(JSON.stringify({ type: 'subscribe', namespace: 'a.B' }))).toEqual({ id: null, code: 'invalid_request' });
    expect(refusal(JSON.stringify({ type: 'subscribe', id: 'x'.repeat(129), namespace: 'a.B' })).code).toBe('invalid_request');
    expect(refusal(JSON.stringify({ type: 'ping', id: 1 }))).toEqual({ id: null, code: 'invalid_request' });
    expect(refusal(JSON.stringify({ type: 'Subscribe', id: 's' }))).toEqual({ id: 's', code: 'invalid_request' });
  });
});
