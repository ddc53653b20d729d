/**
 * One committed event on its way to the subscriptions: what several of them would compute alike is
 * computed once. Whether the record passes a filter and row scope, once per distinct compiled test
 * (RecordView.matchKey); the record, once per distinct view (RecordView.key: same fields, same
 * grants); the message's frame, once per view and subscription id. A thousand subscribers of one
 * view cost one rendering, one serialization and one frame; each subscription still asks its own
 * view, so a subscriber whose grants changed gets the frame of its new view.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { EventMessage } from '../../shared/streams.ts';
import type { SqlSession } from '../db/sql-session.ts';
import { serializeAnswer } from '../query/stored-json.ts';
import type { LoggedEvent } from './event-log.ts';
import { textFrame, type OutgoingFrame } from './frames.ts';
import type { RecordView } from './views.ts';

/** The view of a controller's custom event: its record as the controller gave it, the same for all. */
const CUSTOM = '\0custom';

export class EventDelivery {
  readonly event: LoggedEvent;
  readonly sql: SqlSession;
  private readonly matches = new Map<string, boolean>();
  private readonly records = new Map<string, JsonValue>();
  /** View key → subscription id → frame. */
  private readonly frames = new Map<string, Map<string, OutgoingFrame>>();

  constructor(event: LoggedEvent, sql: SqlSession) {
    this.event = event;
    this.sql = sql;
  }

  /** Whether the event's record is within the view's filter and row scope. */
  passes(view: RecordView): boolean {
    if (view.matchKey === null) return this.event.row !== null;
    let passes = this.matches.get(view.matchKey);
    if (passes === undefined) this.matches.set(view.matchKey, (passes = view.matches(this.event, this.sql)));
    return passes;
  }

  /** The frame asked for last: the subscribers of one view, one after another, skip the two lookups. */
  private lastKey: string | null = null;
  private lastId: string | null = null;
  private lastFrame: OutgoingFrame | null = null;

  /** The frame of the event for subscription `id` seeing it through `view` (null: a custom event). */
  frame(id: string, view: RecordView | null): OutgoingFrame | null {
    const key = view === null ? CUSTOM : view.key;
    if (key === this.lastKey && id === this.lastId) return this.lastFrame;
    const frame = this.lookup(id, key, view);
    this.lastKey = key;
    this.lastId = id;
    this.lastFrame = frame;
    return frame;
  }

  private lookup(id: string, key: string, view: RecordView | null): OutgoingFrame | null {
    let byId = this.frames.get(key);
    if (byId === undefined) this.frames.set(key, (byId = new Map()));
    let frame = byId.get(id);
    if (frame !== undefined) return frame;
    const record = view === null ? this.customRecord() : this.record(view);
    if (record === null) return null;
    const { event } = this;
    const message: EventMessage = { type: 'event', subscription: id, event: event.event, namespace: event.namespace, seq: event.seq, at: event.at, record };
    byId.set(id, (frame = textFrame(serializeAnswer(message))));
    return frame;
  }

  private record(view: RecordView): JsonValue {
    let record = this.records.get(view.key);
    if (record === undefined) this.records.set(view.key, (record = view.render(this.event, this.sql)));
    return record;
  }

  private customRecord(): JsonValue {
    return this.event.custom?.record ?? null;
  }
}
