/**
 * The boundary for `/jql-streams` frames (docs/protocol.md "Streams"): each frame read into the console's
 * StreamFrame, or an `unreadable` frame with the sentence that says why (binary, not JSON, not a
 * stream message). A frame over MAX_FRAME_BYTES is summarized: its envelope (subscription, seq,
 * event, the record's id when it is a plain value) is kept, the record itself is not, so a server
 * sending 10 MB events cannot grow the console's memory by 10 MB each.
 */
import * as v from 'valibot';
import type { JsonValue } from '../../../shared/protocol.ts';
import type { EventMessage } from '../../../shared/streams.ts';
import { bigNumberText, isBigNumber, parseJsonKeepingNumbers } from '../../../shared/big-number.ts';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../json-depth.ts';
import { formatBytes as formatFrameBytes } from '../../components/format.ts';
import { count, label, message, record } from './fields.ts';
import { lenient } from './lenient.ts';

export const MAX_FRAME_BYTES = 1024 * 1024;

export type StreamFrame =
  | { type: 'subscribed'; id: string; seq: number; truncated: boolean }
  | { type: 'unsubscribed'; id: string }
  | (EventMessage & { summarized: string | null })
  | { type: 'error'; id: string | null; error: { code: string; message: string } }
  | { type: 'pong' }
  | { type: 'authenticated'; username: string }
  /** Not a message the console can read; `sentence` says why. */
  | { type: 'unreadable'; sentence: string };

/** What a socket delivers: text, or a binary frame (only its size is kept). */
export type SocketData = string | { binaryBytes: number };

const id = v.pipe(v.string(), v.maxLength(200));

const messageSchema = v.variant('type', [
  v.object({ type: v.literal('subscribed'), id, seq: count, truncated: v.optional(v.boolean()) }),
  v.object({ type: v.literal('unsubscribed'), id }),
  v.object({ type: v.literal('event'), subscription: id, event: label, namespace: v.optional(label, ''), seq: count, at: v.optional(lenient(v.string(), '', 'at', 'text'), ''), record: v.optional(v.unknown(), null) }),
  v.object({
    type: v.literal('error'),
    id: v.optional(v.nullable(id), null),
    error: v.optional(lenient(record({ code: v.optional(label, 'internal_error'), message: v.optional(message, 'The server reported an error.') }), undefined, 'error', 'an error'), undefined),
  }),
  v.object({ type: v.literal('pong') }),
  v.object({ type: v.literal('authenticated'), user: v.optional(v.looseObject({ username: v.optional(label) })) }),
]);

const unreadable = (sentence: string): StreamFrame => ({ type: 'unreadable', sentence });

/** The record's id, when it is a plain value: an object or list as an id is shown as its JSON. */
export function recordIdOf(record: JsonValue): string | number | null {
  if (typeof record !== 'object' || record === null || Array.isArray(record) || !('id' in record)) return null;
  const id = record.id;
  // A 64-bit id is shown, searched and exported as the digits the server sent (big-number.ts).
  if (typeof id === 'string') return (isBigNumber(id) ? bigNumberText(id) : id).slice(0, 200);
  if (typeof id === 'number' || typeof id === 'boolean') return typeof id === 'number' ? id : String(id);
  if (id === null || id === undefined) return null;
  // Valid JSON such as {"toString": 1, "valueOf": 1} cannot be turned into a string by String().
  const text = JSON.stringify(id);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

export function readStreamFrame(data: SocketData): StreamFrame {
  if (typeof data !== 'string') return unreadable(`The server sent a binary frame (${formatFrameBytes(data.binaryBytes)}), not text: it is ignored.`);
  let raw: unknown;
  try {
    // Numbers a double cannot hold stay their digits, as in answers (big-number.ts).
    raw = parseJsonKeepingNumbers(data);
  } catch {
    return unreadable(`The server sent a frame that is not JSON (${JSON.stringify(data.slice(0, 40))}${data.length > 40 ? '…' : ''}): it is ignored.`);
  }
  const big = data.length > MAX_FRAME_BYTES;
  // A record too deep to clone or show is summarized like a huge one.
  const deep = !big && nestedDeeperThan(raw, MAX_JSON_DEPTH);
  const result = v.safeParse(messageSchema, raw);
  if (!result.success) {
    const type = typeof raw === 'object' && raw !== null && 'type' in raw ? (raw as { type: unknown }).type : undefined;
    return unreadable(`The server sent a frame that is not a stream message${typeof type === 'string' ? ` of type ${JSON.stringify(type.slice(0, 40))}` : ''}: it is ignored.`);
  }
  const m = result.output;
  switch (m.type) {
    case 'subscribed':
      return { type: 'subscribed', id: m.id, seq: m.seq, truncated: m.truncated === true };
    case 'unsubscribed':
      return m;
    case 'event': {
      // JSON.parse made it: a JSON value.
      const event = { ...m, record: m.record as JsonValue };
      if (big || deep) {
        const id = recordIdOf(event.record);
        const summary = big ? `a record of ${formatFrameBytes(data.length)}, over the ${formatFrameBytes(MAX_FRAME_BYTES)} the console keeps per event` : `a record nested more than ${MAX_JSON_DEPTH} levels deep`;
        // A big-number id stays a number in the kept record (its marker), not its digits as text.
        const kept = isBigNumber((event.record as { id?: unknown } | null)?.id) ? (event.record as { id: JsonValue }).id : id;
        return { ...event, record: id === null ? null : { id: kept }, summarized: `Summarized: ${summary}; its record is not kept.` };
      }
      return { ...event, summarized: null };
    }
    case 'error':
      return { type: 'error', id: m.id, error: { code: m.error?.code ?? 'internal_error', message: m.error?.message ?? 'The server reported an error.' } };
    case 'pong':
      return m;
    case 'authenticated':
      return { type: 'authenticated', username: m.user?.username ?? '' };
  }
}
