/**
 * How one subscriber sees a logged event: whether the record's snapshot passes its filter and row
 * scope, and the record serialized with its `fields` and permissions. Built once per subscription, so
 * a bad filter or selection is refused when subscribing, never while delivering.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { LoggedEvent } from './event-log.ts';

export interface RecordView {
  /** The record as this subscriber may see it, or null when it is outside its filter or row scope. */
  render(event: LoggedEvent): JsonValue | null;
}

export interface ViewInput {
  filter?: Record<string, JsonValue>;
  fields?: Record<string, JsonValue>;
}

/** The name the snapshot row takes in the statements that test it. */
export const SNAPSHOT = 'jql_snapshot';
