/**
 * How one subscriber sees a logged event: whether the record's snapshot passes its filter and row
 * scope, and the record serialized with its `fields` and permissions. Built once per subscription (and
 * again when the subscriber's grants change), so a bad filter or selection is refused when
 * subscribing, never while delivering.
 *
 * Each view names what decides its answers (`key`, `matchKey`): a thousand subscribers with the same
 * fields and the same grants share one rendering of an event, and one frame on the wire (fanout.ts).
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
  /**
   * Everything that decides the bytes `render` gives for an event (the namespace, the selection, the
   * subscriber's grants on every model the selection reads): views with equal keys render equally.
   */
  readonly key: string;
  /**
   * Everything that decides `matches` for an event (the compiled filter and row scope with their
   * values): views with equal match keys answer equally. Null: nothing restricts, every event passes.
   */
  readonly matchKey: string | null;
  /** Whether the event's record is within this subscriber's filter and row scope. */
  matches(event: LoggedEvent, sql: SqlSession): boolean;
  /** The record as this subscriber may see it (asked only of events that match). */
  render(event: LoggedEvent, sql: SqlSession): JsonValue;
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
