/**
 * One subscription of one connection: resolves the namespace and the caller's access when it is
 * made (PROTOCOL.md 5: the same rules as a retrieve), then decides event by event what this
 * subscriber receives. Custom events a controller emits carry a record the server cannot check
 * against a filter or a row scope, so they go only to subscriptions that asked for every event and
 * read the namespace without filter or scope.
 */
import type { StreamEventKind } from '../../shared/streams.ts';
import { fail } from '../errors.ts';
import type { EventDelivery } from './fanout.ts';
import type { OutgoingFrame } from './frames.ts';
import type { ParsedSubscribe } from './messages.ts';
import type { RecordView, StreamViews, Subscriber } from './views.ts';

export class Subscription {
  readonly id: string;
  readonly namespace: string;
  readonly schema: 'model' | 'nosql';
  /** Events up to this sequence number have been delivered or skipped. */
  cursor = 0;
  /** Caught up: the hub hands it new events as they commit. */
  live = false;
  closed = false;
  private readonly events: Set<StreamEventKind> | null;
  private readonly view: RecordView;
  private readonly takesCustom: boolean;
  private readonly send: (frame: OutgoingFrame) => void;

  constructor(request: ParsedSubscribe, view: RecordView, takesCustom: boolean, send: (frame: OutgoingFrame) => void) {
    this.id = request.id;
    this.namespace = request.namespace;
    this.schema = request.schema;
    this.events = request.events;
    this.view = view;
    this.takesCustom = takesCustom && request.events === null;
    this.send = send;
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

/** Checks the caller may read the namespace and builds its view; throws a coded JqlFailure otherwise. */
export function openSubscription(
  ctx: Subscriber,
  views: StreamViews,
  request: ParsedSubscribe,
  send: (frame: OutgoingFrame) => void,
): Subscription {
  const { ws, access } = ctx.state;
  const unrestricted = (scopes: unknown) => scopes === null && (request.filter === undefined || Object.keys(request.filter).length === 0);
  if (request.schema === 'nosql') {
    const collection = ws.collections.get(request.namespace);
    if (!collection) return fail('unknown_namespace', `No collection "${request.namespace}"`);
    const scopes = access.check(collection.permissions, 'retrieve', ctx.user, collection.key);
    return new Subscription(request, views.nosql(ctx, collection, scopes, request), unrestricted(scopes), send);
  }
  const model = ws.models.get(request.namespace);
  if (!model) return fail('unknown_namespace', `No model "${request.namespace}"`);
  const scopes = access.check(model.permissions, 'retrieve', ctx.user, model.key);
  return new Subscription(request, views.model(ctx, model, scopes, request), unrestricted(scopes), send);
}
