/**
 * The stream hub: owns the event log and hands committed events to live subscriptions.
 *
 * The processors append events inside their write transaction. Right after the outermost COMMIT,
 * synchronously (Database.onCommit), the hub reads the events appended since its last flush and
 * fans them out: every event it reads is committed, a rolled-back write left none, and nothing can
 * run between the commit and the fan-out. Records are rendered through the read connection.
 *
 * Replays (`since`) read the log in batches through the read connection and join the live set in the
 * same synchronous step as their last batch, so an event is either in what the replay reads or
 * fanned out after the subscription went live, never both and never neither. The log is never pruned
 * below a cursor that is still replaying, so a replay has no hole.
 *
 * Live subscriptions are indexed by namespace, and each event is handed to them as one EventDelivery
 * (fanout.ts): subscribers that see the event alike share its rendering and its frame.
 */
import type { MutationSink } from '../context.ts';
import type { Database } from '../db/database.ts';
import { untracked, type SqlRunner } from '../db/sql-session.ts';
import { SqlSession } from '../db/sql-session.ts';
import type { Workspace } from '../workspace/types.ts';
import { EventLog, type LoggedEvent } from './event-log.ts';
import { EventDelivery } from './fanout.ts';
import type { Subscription } from './subscription.ts';

/** Events read at once when fanning out after a request that wrote many. */
const FLUSH_PAGE = 500;

export class StreamHub {
  readonly sink: MutationSink;
  /** Where delivery failures are reported (the route points it at the server's log). */
  onError: (error: unknown) => void = () => undefined;
  private readonly db: Database;
  private readonly log: EventLog;
  private keep: number;
  private readonly live = new Set<Subscription>();
  /** The live subscriptions by `schema namespace`. */
  private readonly liveByNamespace = new Map<string, Set<Subscription>>();
  private readonly replaying = new Set<Subscription>();
  private last: number;
  private dirty = false;

  constructor(db: Database, ws: Workspace) {
    this.db = db;
    this.log = new EventLog(ws);
    this.keep = Math.max(1, ws.limits.maxStreamEvents);
    this.last = this.read((sql) => this.log.latest(sql));
    this.sink = this.log.sink(() => {
      this.dirty = true;
    });
    db.onCommit(() => this.flush());
  }

  /**
   * A workspace applied in place (`serve --watch`), called right after the commit of its migration:
   * events of its new models are logged as theirs, and its maxStreamEvents bounds the log.
   */
  useWorkspace(ws: Workspace): void {
    this.log.useWorkspace(ws);
    this.keep = Math.max(1, ws.limits.maxStreamEvents);
  }

  /** The latest committed sequence number. */
  latest(): number {
    return this.last;
  }

  /** Whether events after `since` have been pruned from the log. */
  lostAfter(since: number): boolean {
    if (since >= this.last) return false;
    const oldest = this.read((sql) => this.log.oldest(sql));
    return oldest === null || oldest > since + 1;
  }

  /** Makes a subscription live from the latest event on. */
  goLive(subscription: Subscription): void {
    this.replaying.delete(subscription);
    subscription.cursor = this.last;
    subscription.live = true;
    this.live.add(subscription);
    const key = namespaceKey(subscription);
    let set = this.liveByNamespace.get(key);
    if (!set) this.liveByNamespace.set(key, (set = new Set()));
    set.add(subscription);
  }

  /** Starts a replay after `since`: the log keeps everything after the cursor until it is done. */
  startReplay(subscription: Subscription, since: number): void {
    // A `since` older than the retained log (answered `truncated`) replays what is kept.
    const oldest = this.lostAfter(since) ? this.read((sql) => this.log.oldest(sql)) : null;
    subscription.cursor = oldest === null ? since : oldest - 1;
    this.replaying.add(subscription);
  }

  /**
   * Delivers the next batch of retained events after the subscription's cursor; when that reaches the
   * latest event the subscription goes live. Answers false when events after the cursor are gone
   * (the subscription must be told, not continued past a hole).
   */
  replay(subscription: Subscription, batch: number): boolean {
    if (this.lostAfter(subscription.cursor)) {
      this.replaying.delete(subscription);
      return false;
    }
    this.db.read((statements) => {
      const sql = new SqlSession(statements, false);
      const events = this.log.read(sql.untracked, subscription.cursor, this.last, batch, subscription.namespace);
      for (const event of events) this.deliver(subscription, new EventDelivery(event, sql));
      if (events.length < batch) this.goLive(subscription);
      else subscription.cursor = (events[events.length - 1] as { seq: number }).seq;
    });
    return true;
  }

  remove(subscription: Subscription): void {
    subscription.closed = true;
    this.live.delete(subscription);
    this.replaying.delete(subscription);
    const key = namespaceKey(subscription);
    const set = this.liveByNamespace.get(key);
    if (set?.delete(subscription) && set.size === 0) this.liveByNamespace.delete(key);
  }

  /** Fans out the events committed since the last flush and prunes the log (after each commit). */
  flush(): void {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      const writer = untracked(this.db.committedWriter());
      this.log.clearPreImages(writer);
      const latest = this.log.latest(writer);
      // Nothing committed: the writes that appended were rolled back.
      if (latest <= this.last) return;
      let after = this.last;
      this.last = latest;
      this.db.read((statements) => {
        const sql = new SqlSession(statements, false);
        while (after < latest) {
          const events = this.log.read(sql.untracked, after, latest, FLUSH_PAGE);
          if (events.length === 0) break;
          for (const event of events) {
            const subscriptions = this.liveByNamespace.get(namespaceKey(event));
            if (!subscriptions) continue;
            const delivery = new EventDelivery(event, sql);
            for (const subscription of subscriptions) {
              if (subscription.cursor < event.seq) this.deliver(subscription, delivery);
            }
          }
          after = (events[events.length - 1] as { seq: number }).seq;
        }
      });
      for (const subscription of this.live) subscription.cursor = latest;
      this.log.prune(writer, this.pruneUpTo(latest));
    } catch (error) {
      this.onError(error);
    }
  }

  /** The retained window, widened down to the oldest cursor a replay still needs. */
  private pruneUpTo(latest: number): number {
    let upTo = latest - this.keep;
    for (const subscription of this.replaying) upTo = Math.min(upTo, subscription.cursor);
    return upTo;
  }

  private read<T>(fn: (sql: SqlRunner) => T): T {
    return this.db.read((statements) => fn(untracked(statements)));
  }

  private deliver(subscription: Subscription, delivery: EventDelivery): void {
    try {
      subscription.deliver(delivery);
    } catch (error) {
      // One subscriber's failure (a record that no longer serializes) must not starve the others.
      this.onError(error);
    }
  }
}

function namespaceKey(of: Pick<LoggedEvent, 'schema' | 'namespace'>): string {
  return `${of.schema} ${of.namespace}`;
}
