/**
 * One subscription of one connection: resolves the namespace and the caller's access when it is
 * made (docs/protocol.md "Permissions and row scopes": the same rules as a retrieve), again whenever the caller's roles change
 * (docs/protocol.md "Streams"), and decides event by event what this subscriber receives. Custom events a controller emits carry a record the server cannot check
 * against a filter or a row scope, so they go only to subscriptions that asked for every event and
 * read the namespace without filter or scope.
 */
import type { StreamEventKind } from '../../shared/streams.ts';
import { fail } from '../errors.ts';
import type { EventDelivery } from './fanout.ts';
import type { OutgoingFrame } from './frames.ts';
import type { ParsedSubscribe } from './messages.ts';
import type { RecordView, StreamViews, Subscriber } from './views.ts';

/** What a subscriber may receive of a subscription: its record view and whether custom events reach it. */
export interface SubscriptionAccess {
  view: RecordView;
  /** The caller reads the namespace with no filter and no row scope. */
  unrestricted: boolean;
}

export class Subscription {
  readonly id: string;
  readonly namespace: string;
  readonly schema: 'model' | 'nosql';
  /** What the client asked for: authorized again when the subscriber's roles change. */
  readonly request: ParsedSubscribe;
  /** Events up to this sequence number have been delivered or skipped. */
  cursor = 0;
  /** Caught up: the hub hands it new events as they commit. */
  live = false;
  closed = false;
  private readonly events: Set<StreamEventKind> | null;
  private view: RecordView;
  private takesCustom: boolean;
  private readonly send: (frame: OutgoingFrame) => void;

  constructor(request: ParsedSubscribe, access: SubscriptionAccess, send: (frame: OutgoingFrame) => void) {
    this.id = request.id;
    this.namespace = request.namespace;
    this.schema = request.schema;
    this.request = request;
    this.events = request.events;
    this.view = access.view;
    this.takesCustom = access.unrestricted && request.events === null;
    this.send = send;
  }

  /** The subscriber's access changed (a role, a row scope): later events are seen through the new one. */
  reauthorize(access: SubscriptionAccess): void {
    this.view = access.view;
    this.takesCustom = access.unrestricted && this.request.events === null;
  }

  /** Sends the event when it is this subscription's and its record is one the subscriber may read. */
  deliver(delivery: EventDelivery): void {
    const { event } = delivery;
    if (this.closed || event.namespace !== this.namespace || event.schema !== this.schema) return;
    let frame;
    if (event.custom) {
      if (!this.takesCustom) return;
      frame = delivery.frame(this.id, null);
    } else {
      if (this.events && !this.events.has(event.event as StreamEventKind)) return;
      if (!delivery.passes(this.view)) return;
      frame = delivery.frame(this.id, this.view);
    }
    if (frame) this.send(frame);
  }
}

/**
 * Checks the caller may read the namespace and builds its view; throws a coded JqlFailure otherwise
 * (`unauthenticated`, `forbidden`, `unknown_namespace`, a bad filter or selection).
 */
export function authorizeSubscription(ctx: Subscriber, views: StreamViews, request: ParsedSubscribe): SubscriptionAccess {
  const { ws, access } = ctx.state;
  const unrestricted = (scopes: unknown) => scopes === null && (request.filter === undefined || Object.keys(request.filter).length === 0);
  if (request.schema === 'nosql') {
    const collection = ws.collections.get(request.namespace);
    if (!collection) return fail('unknown_namespace', `No collection "${request.namespace}"`);
    const scopes = access.check(collection.permissions, 'retrieve', ctx.user, collection.key);
    return { view: views.nosql(ctx, collection, scopes, request), unrestricted: unrestricted(scopes) };
  }
  const model = ws.models.get(request.namespace);
  if (!model) return fail('unknown_namespace', `No model "${request.namespace}"`);
  const scopes = access.check(model.permissions, 'retrieve', ctx.user, model.key);
  return { view: views.model(ctx, model, scopes, request), unrestricted: unrestricted(scopes) };
}

export function openSubscription(ctx: Subscriber, views: StreamViews, request: ParsedSubscribe, send: (frame: OutgoingFrame) => void): Subscription {
  return new Subscription(request, authorizeSubscription(ctx, views, request), send);
}
