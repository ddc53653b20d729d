/**
 * How one subscriber sees a logged event: whether the record's snapshot passes its filter and row
 * scope, and the record serialized with its `fields` and permissions. Built once per subscription, so
 * a bad filter or selection is refused when subscribing, never while delivering.
 *
 * This is the streams' narrow interface to the processors: the model and nosql processors provide
 * `StreamViews` (their stream-view.ts), and the streams never import a processor.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { RequestContext, Scopes } from '../context.ts';
import type { SqlSession } from '../db/sql-session.ts';
import type { CollectionDef, ModelDef } from '../workspace/types.ts';
import type { LoggedEvent } from './event-log.ts';

export interface RecordView {
  /** The record as this subscriber may see it, or null when it is outside its filter or row scope. */
  render(event: LoggedEvent, sql: SqlSession): JsonValue | null;
}

export interface ViewInput {
  filter?: Record<string, JsonValue>;
  fields?: Record<string, JsonValue>;
}

/** The subscriber: everything of a request context but its SQL session (each delivery has its own). */
export type Subscriber = Omit<RequestContext, 'sql'>;

export interface StreamViews {
  model(subscriber: Subscriber, model: ModelDef, scopes: Scopes, input: ViewInput): RecordView;
  nosql(subscriber: Subscriber, collection: CollectionDef, scopes: Scopes, input: ViewInput): RecordView;
}

/** The name the snapshot row takes in the statements that test it. */
export const SNAPSHOT = 'jql_snapshot';
