/**
 * Wire messages of `WS {base}/jql-streams` (docs/protocol.md "Streams"): what a client sends and what the server
 * answers. Shared by the server's stream route and the console's stream inspector.
 */
import type { ErrorCode } from './error-codes.ts';
import type { JsonObject, JsonValue } from './protocol.ts';

/** The mutation events every model and collection emits. */
export const STREAM_EVENTS = ['created', 'updated', 'deleted'] as const;
export type StreamEventKind = (typeof STREAM_EVENTS)[number];

/** Close code of a subscriber that fell too far behind; it reconnects and resumes with `since`. */
export const CLOSE_TOO_FAR_BEHIND = 4008;

export interface SubscribeMessage {
  type: 'subscribe';
  id: string;
  namespace: string;
  /** `model` when absent. */
  schema?: 'model' | 'nosql';
  /** Every event when absent. */
  events?: StreamEventKind[];
  filter?: JsonObject;
  fields?: JsonObject;
  /** Replays the retained events after this sequence number before live ones. */
  since?: number;
}

/** The credential as the socket's first message, instead of `?token=` in the URL. */
export interface AuthMessage {
  type: 'auth';
  token: string;
}

export type StreamClientMessage = SubscribeMessage | { type: 'unsubscribe'; id: string } | { type: 'ping' } | AuthMessage;

export interface SubscribedMessage {
  type: 'subscribed';
  id: string;
  /** The latest event sequence number when the subscription started. */
  seq: number;
  /** Present when `since` was older than the retained log: events between were lost. */
  truncated?: true;
}

export interface EventMessage {
  type: 'event';
  subscription: string;
  event: string;
  namespace: string;
  seq: number;
  /** ISO-8601 time of the mutation. */
  at: string;
  /** Serialized with the subscriber's permissions and `fields`; `{"id"}` for `deleted`. */
  record: JsonValue;
}

export interface StreamErrorMessage {
  type: 'error';
  /** The subscription the error is about, or null (a message that could not be read, a bad credential). */
  id: string | null;
  error: { code: ErrorCode; message: string };
}

export type StreamServerMessage =
  | SubscribedMessage
  | { type: 'unsubscribed'; id: string }
  | EventMessage
  | StreamErrorMessage
  | { type: 'pong' }
  | { type: 'authenticated'; user: { id: number; username: string } };
