/**
 * The stream hub: owns the event log and hands committed events to live subscriptions.
 *
 * Every request runs under the gate (db/gate.ts), one at a time, and its transaction is closed when
 * its task ends. The hub wraps the gate so that right after each task, still inside the gate, it reads
 * the events appended since the last time: at that moment every row in the log is committed, and no
 * other request can be half-way through a transaction, so a subscriber never sees an event of a
 * write that is later undone, and records are serialized from a consistent database.
 *
 * Replays (`since`) read the log in batches, each inside a gate task, and join the live set in the
 * same task as their last batch: an event is then either in the log the replay reads or committed
 * after the subscription went live, never both and never neither.
 */
import type { MutationSink, ServerState } from '../context.ts';
import type { Sqlite } from '../db/database.ts';
import type { Workspace } from '../workspace/types.ts';
import { EventLog, type LoggedEvent } from './event-log.ts';
import type { Subscription } from './subscription.ts';

type Gate = ServerState['gate'];

/** Events read at once when fanning out after a request that wrote many. */
const FLUSH_PAGE = 500;

export class StreamHub {
  readonly sink: MutationSink;
  /** Where delivery failures are reported (the route points it at the server's log). */
  onError: (error: unknown) => void = () => undefined;
  private readonly log: EventLog;
  private readonly keep: number;
  private readonly live = new Set<Subscription>();
  private last: number;
  private dirty = false;

  constructor(db: Sqlite, ws: Workspace) {
    this.log = new EventLog(db, ws);
    this.keep = Math.max(1, ws.limits.maxStreamEvents);
    this.last = this.log.latest();
    this.sink = this.log.sink(() => {
      this.dirty = true;
    });
  }

  /** The gate every request goes through, fanning out committed events after each task. */
  gated(gate: Gate): Gate {
    return {
      run: <T>(task: () => Promise<T> | T): Promise<T> =>
        gate.run(async () => {
          try {
            return await task();
          } finally {
            this.flush();
          }
        }),
    };
  }

  /** The latest committed sequence number. Call it under the gate. */
  latest(): number {
    return this.last;
  }

  /** Whether events after `since` have been pruned from the log. Call it under the gate. */
  lostAfter(since: number): boolean {
    if (since >= this.last) return false;
    const oldest = this.log.oldest();
    return oldest === null || oldest > since + 1;
  }

  /** Makes a subscription live from the latest event on. Call it under the gate. */
  goLive(subscription: Subscription): void {
    subscription.cursor = this.last;
    subscription.live = true;
    this.live.add(subscription);
  }

  /**
   * Delivers the next batch of retained events after the subscription's cursor; when that reaches the
   * latest event the subscription goes live. Call it under the gate.
   */
  replay(subscription: Subscription, batch: number): void {
    const events = this.log.read(subscription.cursor, this.last, batch, subscription.namespace);
    for (const event of events) this.deliver(subscription, event);
    if (events.length < batch) this.goLive(subscription);
    else subscription.cursor = (events[events.length - 1] as { seq: number }).seq;
  }

  remove(subscription: Subscription): void {
    subscription.closed = true;
    this.live.delete(subscription);
  }

  /** Fans out the events committed since the last flush and prunes the log. Runs under the gate. */
  flush(): void {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      this.log.clearPreImages();
      const latest = this.log.latest();
      // Nothing committed: the writes that appended were rolled back.
      if (latest <= this.last) return;
      let after = this.last;
      this.last = latest;
      while (after < latest) {
        const events = this.log.read(after, latest, FLUSH_PAGE);
        if (events.length === 0) break;
        for (const event of events) {
          for (const subscription of this.live) {
            if (subscription.cursor < event.seq) this.deliver(subscription, event);
          }
        }
        after = (events[events.length - 1] as { seq: number }).seq;
      }
      for (const subscription of this.live) subscription.cursor = latest;
      this.log.prune(this.keep, latest);
    } catch (error) {
      this.onError(error);
    }
  }

  private deliver(subscription: Subscription, event: LoggedEvent): void {
    try {
      subscription.deliver(event);
    } catch (error) {
      // One subscriber's failure (a record that no longer serializes) must not starve the others.
      this.onError(error);
    }
  }
}
