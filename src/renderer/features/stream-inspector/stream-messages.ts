/**
 * The `/jql-streams` messages the console sends (docs/protocol.md "Streams"). What a server sends is read at
 * the boundary (response/schema/stream-schema.ts), not here.
 */
import type { JsonObject } from '../../../shared/protocol.ts';
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

// What the server sends is read at the boundary: response/schema/stream-schema.ts.
export type { EventMessage };
