/**
 * A `/jql-streams` client (docs/protocol.md "Streams") over the StreamSocket interface: several subscriptions
 * on one socket, heartbeats, reconnection with backoff, and lossless resume: each subscription
 * remembers the last sequence number it covered and re-subscribes with `since` after a break, drops
 * duplicates, flags replayed events, and says in a gap marker whether anything can have been missed.
 * Framework-free; the panel listens through `on`.
 */
import { stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import { DEFAULT_RETENTION, FELL_BEHIND_CODE, judgeResume, refusedResume, type GapMarker } from './gap-marker.ts';
import { readStreamFrame, type StreamFrame } from '../../response/schema/stream-schema.ts';
import type { ClientMessage, SubscriptionSpec } from './stream-messages.ts';
import type { ConnectStreamSocket, SocketData, StreamSocket } from './stream-socket.ts';

export type EventFrame = Extract<StreamFrame, { type: 'event' }>;

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'waiting' | 'closed';

export interface SubscriptionState {
  id: string;
  spec: SubscriptionSpec;
  status: 'pending' | 'active' | 'error';
  /** The highest seq this subscription has covered (null until the server first answers). */
  cursor: number | null;
  received: number;
  duplicates: number;
  /** When the server last acknowledged it (null while pending): how long it has waited for an event. */
  activeSince: number | null;
  error: { code: string; message: string } | null;
}

export type StreamNotice =
  | { type: 'event'; event: EventFrame; replayed: boolean; bytes: number }
  /** A frame the console could not read (binary, not JSON, not a stream message). */
  | { type: 'unreadable'; sentence: string }
  | { type: 'gap'; marker: GapMarker }
  | { type: 'connection'; state: ConnectionState; detail: string | null }
  | { type: 'subscriptions' }
  | { type: 'error'; subscription: string | null; error: { code: string; message: string } };

export interface StreamClientOptions {
  connect: ConnectStreamSocket;
  now?: () => number;
  /** How many events the server retains (default 10,000), to judge a resume. */
  retention?: number;
  pingIntervalMs?: number;
  /** Silence beyond one ping interval plus this means the peer is gone. */
  pongTimeoutMs?: number;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  /** A socket that closes sooner than this after opening counts as a failed attempt (backoff grows). */
  stableAfterMs?: number;
  /** 0..1; the jitter of each backoff wait (tests pass a fixed one). */
  random?: () => number;
}

interface Subscription extends SubscriptionState {
  /** Set while a break is being repaired: the `since` to send. */
  resumeFrom: number | null;
  /** Events up to this seq are replays of the log, not live ones. */
  replayUntil: number | null;
  /** The user asked to start from an earlier seq: replay without a gap marker. */
  initialSince: number | null;
}

export const HEARTBEAT_CLOSE_CODE = 4000;

export class StreamClient {
  private readonly opts: Required<Omit<StreamClientOptions, 'connect'>> & Pick<StreamClientOptions, 'connect'>;
  private readonly subs = new Map<string, Subscription>();
  private readonly listeners = new Set<(notice: StreamNotice) => void>();
  private socket: StreamSocket | null = null;
  private stateValue: ConnectionState = 'idle';
  private detailValue: string | null = null;
  private stopped = true;
  private attempts = 0;
  private nextId = 1;
  private lastCloseCode: number | null = null;
  private openedAt = 0;
  private lastMessageAt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;

  constructor(options: StreamClientOptions) {
    this.opts = {
      now: () => Date.now(),
      retention: DEFAULT_RETENTION,
      pingIntervalMs: 25_000,
      pongTimeoutMs: 10_000,
      backoffInitialMs: 500,
      backoffMaxMs: 30_000,
      stableAfterMs: 10_000,
      random: Math.random,
      ...options,
    };
  }

  get state(): ConnectionState {
    return this.stateValue;
  }

  get detail(): string | null {
    return this.detailValue;
  }

  subscriptions(): SubscriptionState[] {
    return [...this.subs.values()].map(({ id, spec, status, cursor, received, duplicates, activeSince, error }) => ({ id, spec, status, cursor, received, duplicates, activeSince, error }));
  }

  /**
   * How long the open socket has been silent, and the heartbeat that bounds it: a browser hands on
   * only whole messages, so a message still arriving (or one that never ends) looks like silence.
   * Null while no socket is open.
   */
  silence(): { since: number; pingIntervalMs: number; closesAfterMs: number } | null {
    if (this.stateValue !== 'open' || !this.socket) return null;
    return { since: this.lastMessageAt, pingIntervalMs: this.opts.pingIntervalMs, closesAfterMs: this.opts.pingIntervalMs + this.opts.pongTimeoutMs };
  }

  on(listener: (notice: StreamNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Connects (and keeps reconnecting) until stop(). Subscriptions made before are sent on open. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.attempts = 0;
    void this.connectNow();
  }

  /** Closes the socket; subscriptions stay, and start() later resumes them from their cursors. */
  stop(): void {
    this.stopped = true;
    this.clearTimers();
    const socket = this.socket;
    if (socket) {
      this.detach();
      this.suspendSubscriptions();
      socket.close(1000, 'closed by the console');
    }
    this.setState('closed', null);
  }

  /** Skips the backoff wait. */
  reconnectNow(): void {
    if (this.stopped || this.stateValue !== 'waiting') return;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    void this.connectNow();
  }

  subscribe(spec: SubscriptionSpec, options: { since?: number } = {}): string {
    while (this.subs.has(`s${this.nextId}`)) this.nextId++;
    const id = `s${this.nextId++}`;
    const since = options.since ?? null;
    this.subs.set(id, { id, spec, status: 'pending', cursor: since, received: 0, duplicates: 0, activeSince: null, error: null, resumeFrom: null, replayUntil: null, initialSince: since });
    this.sendSubscribe(this.subs.get(id)!);
    this.emit({ type: 'subscriptions' });
    return id;
  }

  unsubscribe(id: string): void {
    if (!this.subs.delete(id)) return;
    this.send({ type: 'unsubscribe', id });
    this.emit({ type: 'subscriptions' });
  }

  /** Re-sends a subscription the server refused (for instance after signing in). */
  retry(id: string): void {
    const sub = this.subs.get(id);
    if (!sub || sub.status !== 'error') return;
    sub.status = 'pending';
    sub.error = null;
    sub.resumeFrom = sub.cursor;
    this.sendSubscribe(sub);
    this.emit({ type: 'subscriptions' });
  }

  private emit(notice: StreamNotice): void {
    for (const listener of [...this.listeners]) listener(notice);
  }

  private setState(state: ConnectionState, detail: string | null): void {
    if (state === this.stateValue && detail === this.detailValue) return;
    this.stateValue = state;
    this.detailValue = detail;
    this.emit({ type: 'connection', state, detail });
  }

  private send(message: ClientMessage): void {
    // A filter's 64-bit id (kept as its digits by subscription-draft.ts) goes as those digits.
    if (this.socket && this.stateValue === 'open') this.socket.send(stringifyKeepingNumbers(message));
  }

  private sendSubscribe(sub: Subscription): void {
    const since = sub.resumeFrom ?? sub.initialSince;
    this.send({ type: 'subscribe', id: sub.id, ...sub.spec, ...(since !== null ? { since } : {}) });
  }

  private async connectNow(): Promise<void> {
    this.setState('connecting', this.attempts > 0 ? `attempt ${this.attempts + 1}` : null);
    let socket: StreamSocket;
    try {
      socket = await this.opts.connect();
    } catch (err) {
      if (!this.stopped) this.scheduleReconnect((err as Error).message);
      return;
    }
    if (this.stopped) {
      socket.close(1000, 'closed by the console');
      return;
    }
    this.socket = socket;
    this.lastMessageAt = this.opts.now();
    socket.onMessage((data) => {
      if (this.socket === socket) this.handleMessage(data);
    });
    socket.onClose((code, reason) => {
      if (this.socket === socket) this.handleClose(code, reason);
    });
    // `attempts` is reset only once this socket has lived a while (handleClose): a server that
    // closes every socket right after opening must not get a reconnect storm.
    this.openedAt = this.opts.now();
    // Subscribe before telling listeners, so one that subscribes on "open" is not sent twice.
    this.stateValue = 'open';
    this.detailValue = null;
    for (const sub of this.subs.values()) if (sub.status === 'pending') this.sendSubscribe(sub);
    this.startHeartbeat();
    this.emit({ type: 'connection', state: 'open', detail: null });
  }

  private handleMessage(data: SocketData): void {
    this.lastMessageAt = this.opts.now();
    const message = readStreamFrame(data);
    switch (message.type) {
      case 'unreadable':
        return this.emit({ type: 'unreadable', sentence: message.sentence });
      case 'subscribed':
        return this.onSubscribed(message.id, message.seq);
      case 'event':
        return this.onEvent(message, typeof data === 'string' ? data.length : data.binaryBytes);
      case 'error':
        return this.onError(message.id, message.error);
      case 'unsubscribed':
      case 'pong':
      case 'authenticated':
        return;
    }
  }

  private onSubscribed(id: string, latest: number): void {
    const sub = this.subs.get(id);
    if (!sub) return;
    sub.status = 'active';
    sub.activeSince = this.opts.now();
    if (sub.resumeFrom !== null) {
      this.emit({ type: 'gap', marker: judgeResume(id, sub.resumeFrom, latest, this.opts.retention, this.lastCloseCode) });
      sub.replayUntil = latest;
      sub.resumeFrom = null;
    } else if (sub.initialSince !== null && sub.cursor === sub.initialSince) {
      sub.replayUntil = latest;
    } else if (sub.cursor === null) {
      // A fresh subscription starts at the server's latest event: nothing before it is ours.
      sub.cursor = latest;
    }
    this.emit({ type: 'subscriptions' });
  }

  private onEvent(message: EventFrame, frameBytes: number): void {
    const sub = this.subs.get(message.subscription);
    if (!sub) return;
    if (sub.cursor !== null && message.seq <= sub.cursor) {
      // Already seen before the break (a replay overlapping what arrived live).
      sub.duplicates++;
      return;
    }
    sub.cursor = message.seq;
    sub.received++;
    const replayed = sub.replayUntil !== null && message.seq <= sub.replayUntil;
    // A summarized frame keeps only its envelope: that is what it costs to hold.
    this.emit({ type: 'event', event: message, replayed, bytes: message.summarized ? 256 : frameBytes });
  }

  private onError(id: string | null, error: { code: string; message: string }): void {
    const sub = id ? this.subs.get(id) : undefined;
    if (sub) {
      if (sub.resumeFrom !== null) {
        this.emit({ type: 'gap', marker: refusedResume(sub.id, sub.resumeFrom, error.message, this.lastCloseCode) });
        sub.resumeFrom = null;
      }
      sub.status = 'error';
      sub.error = error;
      this.emit({ type: 'subscriptions' });
    }
    this.emit({ type: 'error', subscription: sub ? sub.id : null, error });
  }

  private handleClose(code: number, reason: string): void {
    this.detach();
    this.lastCloseCode = code;
    this.suspendSubscriptions();
    if (this.stopped) {
      this.setState('closed', null);
      return;
    }
    const stable = this.opts.now() - this.openedAt >= this.opts.stableAfterMs;
    if (stable) this.attempts = 0;
    const why = code === FELL_BEHIND_CODE ? 'the console fell behind (4008)' : `closed (${code}${reason ? `: ${reason.slice(0, 120)}` : ''})`;
    // Falling behind after a good run resumes at once; a server that says so right after every
    // open gets the same backoff as any other failing one.
    this.scheduleReconnect(why, code === FELL_BEHIND_CODE && stable ? 0 : undefined);
  }

  /** After a break: each subscription will resume from what it covered; one never acknowledged starts over. */
  private suspendSubscriptions(): void {
    for (const sub of this.subs.values()) {
      if (sub.status === 'error') continue;
      if (sub.cursor !== null) sub.resumeFrom = sub.cursor;
      sub.status = 'pending';
      sub.activeSince = null;
      sub.replayUntil = null;
    }
    this.emit({ type: 'subscriptions' });
  }

  private detach(): void {
    this.socket = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private scheduleReconnect(why: string, delayMs?: number): void {
    // Exponential, capped, with "equal jitter" (half fixed, half random) so many consoles that lost
    // the same server do not all come back in the same instant.
    const ceiling = Math.min(this.opts.backoffMaxMs, this.opts.backoffInitialMs * 2 ** Math.min(this.attempts, 30));
    const delay = delayMs ?? Math.round(ceiling / 2 + (ceiling / 2) * this.opts.random());
    this.attempts++;
    this.setState('waiting', delay > 0 ? `${why}; reconnecting in ${Math.ceil(delay / 1000)} s` : `${why}; reconnecting`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stopped) void this.connectNow();
    }, delay);
  }

  private startHeartbeat(): void {
    this.heartbeat = setInterval(() => {
      const socket = this.socket;
      if (!socket) return;
      if (this.opts.now() - this.lastMessageAt > this.opts.pingIntervalMs + this.opts.pongTimeoutMs) {
        // A dead peer may never deliver a close event: give up on the socket now.
        this.handleClose(HEARTBEAT_CLOSE_CODE, 'no answer to ping');
        socket.close(HEARTBEAT_CLOSE_CODE, 'no answer to ping');
        return;
      }
      this.send({ type: 'ping' });
    }, this.opts.pingIntervalMs);
  }

  private clearTimers(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
