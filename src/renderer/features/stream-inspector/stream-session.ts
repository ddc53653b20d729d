/**
 * One inspector's state for one connection: the stream client, the event log, the rate counter and
 * the panel's own settings (search, autoscroll, selection). It lives outside React so the log
 * survives switching tabs: the app keeps one session per connection and hands it to the panel.
 */
import { ExternalStore } from '../../state/external-store.ts';
import { EventLog, type LogMarkerEntry } from './event-log.ts';
import { batchFrames, type FrameBatchOptions } from './frame-batcher.ts';
import type { GapMarker } from './gap-marker.ts';
import { compileLogQuery } from './log-query.ts';
import { RateCounter } from './rate-counter.ts';
import { StreamClient, type ConnectionState, type StreamClientOptions, type StreamNotice, type SubscriptionState } from './stream-client.ts';
import { recordIdOf } from '../../response/schema/stream-schema.ts';
import type { SubscriptionSpec } from './stream-messages.ts';

export interface SessionState {
  connection: ConnectionState;
  detail: string | null;
  subscriptions: SubscriptionState[];
  query: string;
  queryError: string | null;
  autoscroll: boolean;
  /** Absolute log index of the entry shown in the detail pane. */
  selected: number | null;
  /** Events skipped because the page could not keep up, and whether it is skipping now. */
  skipped: number;
  skipping: boolean;
}

export interface StreamSessionOptions extends StreamClientOptions {
  capacity?: number;
  /** The log's cap in bytes (default 64 MiB). */
  maxBytes?: number;
  /** How frames are handed on in slices (frame-batcher.ts); false hands each on as it arrives. */
  batch?: Omit<FrameBatchOptions, 'onSkip'> | false;
}

const GAP_LEVEL: Record<GapMarker['verdict'], LogMarkerEntry['level']> = { 'nothing-missed': 'ok', 'possibly-missed': 'warn', missed: 'error' };

export class StreamSession extends ExternalStore<SessionState> {
  readonly client: StreamClient;
  readonly log: EventLog;
  readonly rates = new RateCounter(60);
  private readonly now: () => number;
  private wasOpen = false;

  constructor(options: StreamSessionOptions) {
    super({ connection: 'idle', detail: null, subscriptions: [], query: '', queryError: null, autoscroll: true, selected: null, skipped: 0, skipping: false });
    this.now = options.now ?? (() => Date.now());
    const batch = options.batch;
    const connect = batch === false ? options.connect : async () => batchFrames(await options.connect(), { ...batch, onSkip: (s) => this.onSkip(s) });
    this.client = new StreamClient({ ...options, connect });
    this.log = new EventLog(options.capacity, options.maxBytes);
    this.client.on((notice) => this.onNotice(notice));
  }

  connect(): void {
    this.client.start();
  }

  disconnect(): void {
    this.client.stop();
  }

  /** Named apart from ExternalStore's `subscribe(listener)`, which React uses. */
  addSubscription(spec: SubscriptionSpec, since: number | null = null): string {
    return this.client.subscribe(spec, since === null ? {} : { since });
  }

  removeSubscription(id: string): void {
    this.client.unsubscribe(id);
  }

  setQuery(query: string): void {
    this.log.setFilter(compileLogQuery(query));
    this.setState({ ...this.getSnapshot(), query, queryError: null });
  }

  setAutoscroll(autoscroll: boolean): void {
    this.setState({ ...this.getSnapshot(), autoscroll });
  }

  select(index: number | null): void {
    this.setState({ ...this.getSnapshot(), selected: index });
  }

  clear(): void {
    this.log.clear();
    this.rates.clear();
    this.setState({ ...this.getSnapshot(), selected: null });
  }

  /** Stops the socket for good (the app drops the session, e.g. when the connection is deleted). */
  dispose(): void {
    this.client.stop();
  }

  private onSkip({ skipping, skipped }: { skipping: boolean; skipped: number }): void {
    const before = this.getSnapshot().skipped;
    if (skipping) this.mark('warn', 'The console cannot keep up with this stream: it skips events until it has caught up (they are not in the log).');
    else this.mark('warn', `Caught up: ${skipped - before} events were skipped.`);
    this.setState({ ...this.getSnapshot(), skipping, skipped });
  }

  private unreadableCount = 0;
  private unreadableMarkedAt = 0;

  /** The first unreadable frames are logged one by one; a stream of them, once a second with a count. */
  private unreadable(sentence: string): void {
    this.unreadableCount++;
    const now = this.now();
    if (this.unreadableCount <= 5) this.mark('warn', sentence);
    else if (now - this.unreadableMarkedAt >= 1000) {
      this.mark('warn', `${this.unreadableCount} frames the console could not read so far; the latest: ${sentence}`);
      this.unreadableMarkedAt = now;
    }
  }

  private mark(level: LogMarkerEntry['level'], text: string, subscription: string | null = null): void {
    this.log.append({ kind: 'marker', level, text, subscription, receivedAt: this.now() });
  }

  private onNotice(notice: StreamNotice): void {
    switch (notice.type) {
      case 'event': {
        const e = notice.event;
        const receivedAt = this.now();
        this.log.append({
          kind: 'event',
          receivedAt,
          subscription: e.subscription,
          event: e.event,
          namespace: e.namespace,
          seq: e.seq,
          at: e.at,
          record: e.record,
          recordId: recordIdOf(e.record),
          replayed: notice.replayed,
          bytes: notice.bytes,
          summarized: e.summarized,
        });
        this.rates.record(e.event, receivedAt);
        return;
      }
      case 'unreadable':
        this.unreadable(notice.sentence);
        return;
      case 'gap':
        this.mark(GAP_LEVEL[notice.marker.verdict], `${notice.marker.subscription}: ${notice.marker.reason}`, notice.marker.subscription);
        return;
      case 'error':
        this.mark('error', `${notice.subscription ? `${notice.subscription}: ` : ''}${notice.error.code}: ${notice.error.message}`, notice.subscription);
        return;
      case 'connection':
        // Log transitions, not every failed attempt of a long outage.
        if (notice.state === 'open') {
          this.mark('info', this.wasOpen ? 'Reconnected.' : 'Connected.');
          this.wasOpen = true;
        } else if (notice.state === 'waiting' && this.getSnapshot().connection === 'open') {
          this.mark('warn', `Disconnected: ${notice.detail ?? 'the connection closed'}.`);
        } else if (notice.state === 'closed' && this.getSnapshot().connection === 'open') {
          this.mark('info', 'Disconnected.');
        }
        this.setState({ ...this.getSnapshot(), connection: notice.state, detail: notice.detail });
        return;
      case 'subscriptions':
        this.setState({ ...this.getSnapshot(), subscriptions: this.client.subscriptions() });
        return;
    }
  }
}
