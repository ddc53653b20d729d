/**
 * The `/jql-streams` messages (PROTOCOL.md 10): what the console sends, and a lenient reader for
 * what any server answers (an unknown or malformed message is dropped, never thrown).
 */
import type { JsonObject, JsonValue } from '../../../shared/protocol.ts';
import type { EventMessage } from '../../../shared/streams.ts';

export type StreamSchema = 'model' | 'nosql';

export interface SubscriptionSpec {
  namespace: string;
  schema?: StreamSchema;
  /** Absent: every event of the namespace. */
  events?: string[];
  filter?: JsonObject;
  fields?: JsonObject;
}

export type ClientMessage =
  | ({ type: 'subscribe'; id: string; since?: number } & SubscriptionSpec)
  | { type: 'unsubscribe'; id: string }
  | { type: 'ping' };

// Events are read as the protocol defines them; only errors are read leniently (any server's codes).
export type { EventMessage };

export type ServerMessage =
  | { type: 'subscribed'; id: string; seq: number }
  | { type: 'unsubscribed'; id: string }
  | EventMessage
  | { type: 'error'; id: string | null; error: { code: string; message: string } }
  | { type: 'pong' };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export function parseServerMessage(text: string): ServerMessage | null {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObj(m)) return null;
  switch (m.type) {
    case 'subscribed':
      return typeof m.id === 'string' && isSeq(m.seq) ? { type: 'subscribed', id: m.id, seq: m.seq } : null;
    case 'unsubscribed':
      return typeof m.id === 'string' ? { type: 'unsubscribed', id: m.id } : null;
    case 'event':
      if (typeof m.subscription !== 'string' || typeof m.event !== 'string' || !isSeq(m.seq)) return null;
      return {
        type: 'event',
        subscription: m.subscription,
        event: m.event,
        namespace: typeof m.namespace === 'string' ? m.namespace : '',
        seq: m.seq,
        at: typeof m.at === 'string' ? m.at : '',
        record: (m.record ?? null) as JsonValue,
      };
    case 'error': {
      const e = isObj(m.error) ? m.error : {};
      return {
        type: 'error',
        id: typeof m.id === 'string' ? m.id : null,
        error: { code: typeof e.code === 'string' ? e.code : 'internal_error', message: typeof e.message === 'string' ? e.message : 'The server reported an error.' },
      };
    }
    case 'pong':
      return { type: 'pong' };
    default:
      return null;
  }
}

/** The record's id, if it has one (a deleted event carries `{"id": …}`). */
export function recordIdOf(record: JsonValue): JsonValue {
  return isObj(record) && 'id' in record ? (record.id as JsonValue) : null;
}
