/**
 * One inspector's state for one connection: the stream client, the event log, the rate counter and
 * the panel's own settings (search, autoscroll, selection). It lives outside React so the log
 * survives switching tabs: the app keeps one session per connection and hands it to the panel.
 */
import { ExternalStore } from '../../state/external-store.ts';
import { EventLog, type LogMarkerEntry } from './event-log.ts';
import type { GapMarker } from './gap-marker.ts';
import { compileLogQuery } from './log-query.ts';
import { RateCounter } from './rate-counter.ts';
import { StreamClient, type ConnectionState, type StreamClientOptions, type StreamNotice, type SubscriptionState } from './stream-client.ts';
import { recordIdOf, type SubscriptionSpec } from './stream-messages.ts';

export interface SessionState {
  connection: ConnectionState;
  detail: string | null;
  subscriptions: SubscriptionState[];
  query: string;
  queryError: string | null;
  autoscroll: boolean;
  /** Absolute log index of the entry shown in the detail pane. */
  selected: number | null;
}

export interface StreamSessionOptions extends StreamClientOptions {
  capacity?: number;
}

const GAP_LEVEL: Record<GapMarker['verdict'], LogMarkerEntry['level']> = { 'nothing-missed': 'ok', 'possibly-missed': 'warn', missed: 'error' };

export class StreamSession extends ExternalStore<SessionState> {
  readonly client: StreamClient;
  readonly log: EventLog;
  readonly rates = new RateCounter(60);
  private readonly now: () => number;
  private wasOpen = false;

  constructor(options: StreamSessionOptions) {
    super({ connection: 'idle', detail: null, subscriptions: [], query: '', queryError: null, autoscroll: true, selected: null });
    this.now = options.now ?? (() => Date.now());
    this.client = new StreamClient(options);
    this.log = new EventLog(options.capacity);
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
        });
        this.rates.record(e.event, receivedAt);
        return;
      }
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
