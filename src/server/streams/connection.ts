/**
 * One WebSocket of `/jql-streams` (docs/protocol.md "Streams"): reads the client's messages one at a time, in
 * order, and writes the server's. It counts the messages handed to the socket that have not been
 * written out yet: a subscriber more than `maxBehind` behind is closed with 4008 and resumes with
 * `since`, and replays wait for the count to fall before sending their next batch, so a large replay
 * never counts as falling behind.
 *
 * A presented credential that fails (bad, expired, revoked) does not close the connection: the
 * client is told once with an error whose id is null, and every subscription answers
 * `unauthenticated`, the way every HTTP intent does (docs/protocol.md "Authentication").
 *
 * Authorization holds at delivery time: when a user's credentials, roles or is_active change (or the
 * user logs out), the route calls `userChanged` right after that commit, before the events of any
 * later commit are fanned out. The credential is checked again synchronously (`refresh`): if it no
 * longer identifies anyone, every subscription ends with `unauthenticated`; otherwise each one is
 * authorized again with the user as it is now, ending with `forbidden` the ones it may no longer hold
 * and narrowing the others to the new row scope. A token's expiry ends them at its `exp` (a timer),
 * and every event is checked against it before it is handed over, so a clock that jumped past `exp`
 * delivers nothing more (issue 30.7). The heartbeat checks sessions' expiries the same way.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { ErrorCode } from '../../shared/error-codes.ts';
import { CLOSE_TOO_FAR_BEHIND, type StreamServerMessage } from '../../shared/streams.ts';
import type { AuthUser, ServerState } from '../context.ts';
import { JqlFailure } from '../errors.ts';
import { textFrame, type OutgoingFrame } from './frames.ts';
import type { StreamHub } from './hub.ts';
import { MessageError, parseClientMessage, type ParsedSubscribe } from './messages.ts';
import { AUTH_AFTER_SUBSCRIBE, authAnswer, type Caller } from './stream-auth.ts';
import { FrameWriter } from './socket-writer.ts';
import { authorizeSubscription, openSubscription, type Subscription } from './subscription.ts';
import type { StreamViews, Subscriber } from './views.ts';

export type { Caller };

export interface ConnectionOptions {
  /** Messages not yet written out before the connection is closed with 4008. */
  maxBehind: number;
  log(error: unknown): void;
  /** Identifies the caller from a token sent in an `auth` message (stream-auth.ts). */
  identifyToken(token: string): Promise<Caller>;
  /** How subscribers see records: provided by the processors. */
  views: StreamViews;
  /** The TCP socket the WebSocket was upgraded from, which pre-built frames are written to (none: `ws.send`). */
  rawSocket?: Duplex | null;
}

const MAX_SUBSCRIPTIONS = 100;
const REPLAY_BATCH = 200;
const REPLAY_LOW_WATER = 100;

export class StreamConnection {
  /** Cleared at each heartbeat, set again by a pong or any message. */
  alive = true;
  private readonly socket: WebSocket;
  /** The state of the workspace running now (workspaceChanged replaces it). */
  private state: ServerState;
  private readonly hub: StreamHub;
  private caller: Promise<Caller>;
  /** The caller once identified (null while the first identification runs). */
  private current: Caller | null = null;
  private readonly options: ConnectionOptions;
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly replayLowWater: number;
  private readonly replayBatch: number;
  private readonly writer: FrameWriter;
  private waiters: Array<() => void> = [];
  private queue: Promise<void>;
  private closed = false;
  /** Ends the subscriptions when the token the caller signed in with expires. */
  private expiryTimer: NodeJS.Timeout | null = null;

  constructor(socket: WebSocket, state: ServerState, hub: StreamHub, identify: () => Promise<Caller>, options: ConnectionOptions) {
    this.socket = socket;
    this.state = state;
    this.hub = hub;
    const caller = identify().then((who) => {
      this.current = who;
      this.watchExpiry();
      return who;
    });
    this.caller = caller;
    this.options = options;
    this.writer = new FrameWriter(socket, options.rawSocket ?? null, () => this.wake(false));
    this.replayLowWater = Math.min(REPLAY_LOW_WATER, Math.floor(options.maxBehind / 2));
    this.replayBatch = Math.max(1, Math.min(REPLAY_BATCH, options.maxBehind - this.replayLowWater));
    this.queue = caller.then((who) => {
      if (who.error) this.error(null, 'unauthenticated', who.error.message);
    });
  }

  /** A text frame's content, or null for a binary frame. Handled after the messages before it. */
  receive(text: string | null): void {
    this.alive = true;
    this.queue = this.queue.then(() => this.handle(text)).catch((error: unknown) => this.options.log(error));
  }

  heartbeat(): void {
    if (!this.alive) {
      this.socket.terminate();
      return;
    }
    this.alive = false;
    this.socket.ping();
    // Expiries happen without a commit to announce them.
    this.refresh(false);
  }

  /** A user changed (credentials, roles, is_active, logout): called right after that commit. */
  userChanged(userId: number): void {
    if (this.current?.user?.id === userId) this.refresh(true);
  }

  /**
   * A workspace was applied in place: called right after its commit. Subscriptions opened from now on
   * use it, and every open one is authorized again against it (its model, its permissions, its
   * fields): one the caller may no longer read ends as a lost permission does, with an error frame
   * of its code (`forbidden`, `unauthenticated`, `unknown_namespace`); the others go on, seeing
   * records through the new workspace.
   */
  workspaceChanged(state: ServerState): void {
    this.state = state;
    const caller = this.current;
    if (this.closed || !caller || caller.error) return;
    this.reauthorize(caller.user);
  }

  /** The socket closed: its subscriptions stop. */
  shutdown(): void {
    this.closed = true;
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    for (const subscription of this.subscriptions.values()) this.hub.remove(subscription);
    this.subscriptions.clear();
    this.wake(true);
  }

  /**
   * Checks the caller's credential again on committed data, synchronously, and applies the answer to
   * every open subscription (see the top of this file). Answers the caller as it is now.
   */
  private refresh(userMayHaveChanged: boolean): Caller | null {
    const before = this.current;
    if (this.closed || !before?.proof || before.error || !before.user) return before;
    const now = this.state.identity.recheck(before.proof);
    if (now.error) {
      this.current = { user: null, error: now.error };
      this.caller = Promise.resolve(this.current);
      for (const subscription of this.subscriptions.values()) {
        this.hub.remove(subscription);
        this.error(subscription.id, 'unauthenticated', now.error.message);
      }
      this.subscriptions.clear();
      return this.current;
    }
    this.current = { user: now.user, proof: before.proof };
    this.caller = Promise.resolve(this.current);
    this.watchExpiry();
    if (userMayHaveChanged || JSON.stringify(now.user) !== JSON.stringify(before.user)) this.reauthorize(now.user);
    return this.current;
  }

  /** The time (ms since the epoch) the caller's token expires, or null for other credentials. */
  private expiresAt(): number | null {
    const proof = this.current?.proof;
    return proof?.kind === 'token' && !this.current?.error ? proof.exp * 1000 : null;
  }

  /** Schedules the check that ends the subscriptions at the token's expiry (a timer per connection). */
  private watchExpiry(): void {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.expiryTimer = null;
    const at = this.expiresAt();
    if (at === null || this.closed) return;
    // setTimeout takes at most 2^31-1 ms (about 24 days): a longer token is looked at again then.
    const delay = Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1);
    this.expiryTimer = setTimeout(() => {
      this.expiryTimer = null;
      if (this.refresh(false)?.error) return;
      this.watchExpiry();
    }, delay);
    this.expiryTimer.unref();
  }

  /** An event for a subscription: handed over only while the caller's token has not expired. */
  private deliver(frame: OutgoingFrame): void {
    const at = this.expiresAt();
    if (at !== null && at <= Date.now()) {
      this.refresh(false);
      return;
    }
    this.sendFrame(frame);
  }

  /** Every subscription, authorized again for the user as it is now. */
  private reauthorize(user: AuthUser | null): void {
    for (const subscription of [...this.subscriptions.values()]) {
      try {
        subscription.reauthorize(authorizeSubscription(this.subscriberFor(user), this.options.views, subscription.request));
      } catch (error) {
        if (!(error instanceof JqlFailure)) throw error;
        const [first] = error.errors;
        this.hub.remove(subscription);
        this.subscriptions.delete(subscription.id);
        this.error(subscription.id, first?.code ?? 'forbidden', first?.message ?? 'This subscription is no longer allowed');
      }
    }
  }

  private async handle(text: string | null): Promise<void> {
    if (this.closed) return;
    if (text === null) return this.error(null, 'invalid_request', 'Messages are JSON in text frames');
    let message;
    try {
      message = parseClientMessage(text);
    } catch (error) {
      if (error instanceof MessageError) return this.error(error.id, error.code, error.message);
      throw error;
    }
    switch (message.type) {
      case 'ping':
        return this.send({ type: 'pong' });
      case 'unsubscribe':
        return this.unsubscribe(message.id);
      case 'subscribe':
        return this.subscribe(message);
      case 'auth':
        return this.authenticate(message.token);
    }
  }

  private async authenticate(token: string): Promise<void> {
    if (this.subscriptions.size > 0) return this.error(null, 'invalid_request', AUTH_AFTER_SUBSCRIBE);
    const caller = await this.options.identifyToken(token);
    // Changes of this user, and the heartbeat, check this credential from now on.
    this.current = caller.user ? caller : { user: null, error: caller.error ?? new Error('The token identifies no user') };
    this.caller = Promise.resolve(this.current);
    this.watchExpiry();
    this.send(authAnswer(caller));
  }

  private async subscribe(request: ParsedSubscribe): Promise<void> {
    const { id } = request;
    if (this.subscriptions.has(id)) return this.error(id, 'invalid_request', `Subscription "${id}" already exists on this connection`);
    if (this.subscriptions.size >= MAX_SUBSCRIPTIONS) return this.error(id, 'invalid_request', `A connection holds at most ${MAX_SUBSCRIPTIONS} subscriptions`);
    await this.caller;
    // From here to going live is one synchronous step, on the credential as committed now: a change
    // of the user committed while it was being identified is not missed.
    const caller = this.refresh(false) as Caller;
    if (caller.error) return this.error(id, 'unauthenticated', caller.error.message);
    let subscription: Subscription;
    try {
      subscription = openSubscription(this.subscriberFor(caller.user), this.options.views, request, (frame) => this.deliver(frame));
    } catch (error) {
      if (!(error instanceof JqlFailure)) throw error;
      const [first] = error.errors;
      return this.error(id, first?.code ?? 'invalid_request', first?.message ?? 'The subscription was refused');
    }
    if (this.closed) return;
    // One synchronous step: the hub fans out right after each commit, so `seq` is the latest
    // committed event and going live (or the replay's start) comes before any later event.
    const latest = this.hub.latest();
    const since = request.since;
    const truncated = since !== undefined && this.hub.lostAfter(since);
    this.send(truncated ? { type: 'subscribed', id, seq: latest, truncated: true } : { type: 'subscribed', id, seq: latest });
    this.subscriptions.set(id, subscription);
    if (since === undefined || since >= latest) {
      this.hub.goLive(subscription);
    } else {
      this.hub.startReplay(subscription, since);
      void this.replay(subscription);
    }
  }

  private async replay(subscription: Subscription): Promise<void> {
    try {
      while (!subscription.closed && !subscription.live) {
        await this.drained();
        if (subscription.closed) return;
        if (!this.hub.replay(subscription, this.replayBatch)) {
          // Never continue past a hole: the client resumes with `since` and is told it was truncated.
          this.shutdown();
          this.writer.flush();
          this.socket.close(CLOSE_TOO_FAR_BEHIND, 'Events of this replay are no longer retained; resume with since');
          return;
        }
      }
    } catch (error) {
      if (this.closed) return;
      this.options.log(error);
      this.error(subscription.id, 'internal_error', 'The replay failed; subscribe again with since');
    }
  }

  private unsubscribe(id: string): void {
    const subscription = this.subscriptions.get(id);
    if (!subscription) return this.error(id, 'invalid_request', `No subscription "${id}" on this connection`);
    this.hub.remove(subscription);
    this.subscriptions.delete(id);
    this.send({ type: 'unsubscribed', id });
  }

  private send(message: StreamServerMessage): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    this.sendFrame(textFrame(JSON.stringify(message)));
  }

  /** Every message goes through the writer, in order: events share their frame with other sockets. */
  private sendFrame(frame: OutgoingFrame): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    this.writer.write(frame);
    if (this.writer.outstanding > this.options.maxBehind) {
      this.shutdown();
      // What was sent before the close frame reaches the client: it resumes after the last of it.
      this.writer.flush();
      this.socket.close(CLOSE_TOO_FAR_BEHIND, `More than ${this.options.maxBehind} messages behind; resume with since`);
    }
  }

  private error(id: string | null, code: ErrorCode, message: string): void {
    this.send({ type: 'error', id, error: { code, message } });
  }

  /** Resolves once few enough messages wait to be written (or the connection closed). */
  private drained(): Promise<void> {
    if (this.closed || this.writer.outstanding <= this.replayLowWater) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private wake(all: boolean): void {
    if (this.waiters.length === 0 || (!all && this.writer.outstanding > this.replayLowWater)) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  /** The subscriber: its permissions and scopes serialize every record. */
  private subscriberFor(user: AuthUser | null): Subscriber {
    return { state: this.state, user, credential: {}, cookies: [], files: new Map() };
  }
}
