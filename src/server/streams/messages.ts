/**
 * Reads a client's stream message (docs/protocol.md "Streams") into a checked shape. Anything unexpected, an
 * unknown key included, is refused with a coded error rather than ignored: a typo in a subscription
 * would otherwise look like a quiet stream.
 */
import type { ErrorCode } from '../../shared/error-codes.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import { STREAM_EVENTS, type StreamEventKind } from '../../shared/streams.ts';
import { parseJsonExact } from '../exact-integers.ts';
import { MAX_CONDITIONS } from '../query/meta.ts';
import { isPlainObject } from '../query/normalize.ts';
import { authTokenProblem } from './stream-auth.ts';

export interface ParsedSubscribe {
  type: 'subscribe';
  id: string;
  namespace: string;
  schema: 'model' | 'nosql';
  /** null: every event. */
  events: Set<StreamEventKind> | null;
  filter?: Record<string, JsonValue>;
  fields?: Record<string, JsonValue>;
  since?: number;
}

export type ClientMessage = ParsedSubscribe | { type: 'unsubscribe'; id: string } | { type: 'ping' } | { type: 'auth'; token: string };

export class MessageError extends Error {
  readonly id: string | null;
  readonly code: ErrorCode;

  constructor(id: string | null, code: ErrorCode, message: string) {
    super(message);
    this.name = 'MessageError';
    this.id = id;
    this.code = code;
  }
}

const MAX_ID_LENGTH = 128;
const KEYS = {
  subscribe: new Set(['type', 'id', 'namespace', 'schema', 'events', 'filter', 'fields', 'since']),
  unsubscribe: new Set(['type', 'id']),
  ping: new Set(['type']),
  auth: new Set(['type', 'token']),
};

export function parseClientMessage(text: string): ClientMessage {
  let value: unknown;
  try {
    // A filter's integers past 2^53 keep their digits, as in POST /jql (exact-integers.ts).
    value = parseJsonExact(text);
  } catch {
    throw new MessageError(null, 'invalid_json', 'The message is not JSON');
  }
  if (!isPlainObject(value)) throw new MessageError(null, 'invalid_request', 'A message is a JSON object with a "type"');
  const id = typeof value.id === 'string' ? value.id : null;
  const bad = (message: string): never => {
    throw new MessageError(id, 'invalid_request', message);
  };
  const type = value.type;
  if (type !== 'subscribe' && type !== 'unsubscribe' && type !== 'ping' && type !== 'auth') {
    return bad('"type" must be "auth", "subscribe", "unsubscribe" or "ping"');
  }
  for (const key of Object.keys(value)) if (!KEYS[type].has(key)) bad(`Unknown key "${key}" in a ${type} message`);
  if (type === 'ping') return { type };
  if (type === 'auth') return authTokenProblem(value.token) === null ? { type, token: value.token as string } : bad(authTokenProblem(value.token)!);
  if (id === null || id === '' || id.length > MAX_ID_LENGTH) return bad(`"id" must be a string of 1 to ${MAX_ID_LENGTH} characters`);
  if (type === 'unsubscribe') return { type, id };
  if (typeof value.namespace !== 'string' || value.namespace === '') return bad('"namespace" must be a non-empty string such as "tickets.Ticket"');
  const subscribe: ParsedSubscribe = { type, id, namespace: value.namespace, schema: 'model', events: null };
  if (value.schema !== undefined) {
    if (value.schema !== 'model' && value.schema !== 'nosql') bad('"schema" must be "model" or "nosql": streams carry the events of models and collections');
    subscribe.schema = value.schema as 'model' | 'nosql';
  }
  if (value.events !== undefined) subscribe.events = eventsOf(value.events, bad);
  if (value.filter !== undefined) {
    if (!isPlainObject(value.filter)) bad('"filter" must be an object, as in a query');
    // The bound of a query's filter: past it SQLite would refuse the compiled match at delivery time.
    if (Object.keys(value.filter as object).length > MAX_CONDITIONS) bad(`"filter" takes at most ${MAX_CONDITIONS} entries, as in a query`);
    subscribe.filter = value.filter as Record<string, JsonValue>;
  }
  if (value.fields !== undefined) {
    if (!isPlainObject(value.fields)) bad('"fields" must be an object, as the data keys of a retrieve');
    subscribe.fields = value.fields as Record<string, JsonValue>;
  }
  if (value.since !== undefined) {
    if (!Number.isSafeInteger(value.since) || (value.since as number) < 0) bad('"since" must be an event sequence number (an integer >= 0)');
    subscribe.since = value.since as number;
  }
  return subscribe;
}

function eventsOf(value: JsonValue, bad: (message: string) => never): Set<StreamEventKind> {
  const allowed = new Set<string>(STREAM_EVENTS);
  if (!Array.isArray(value) || value.length === 0 || value.some((event) => typeof event !== 'string' || !allowed.has(event))) {
    bad(`"events" must be a non-empty array of ${STREAM_EVENTS.map((event) => `"${event}"`).join(', ')}`);
  }
  return new Set(value as StreamEventKind[]);
}
