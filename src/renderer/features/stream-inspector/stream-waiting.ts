/**
 * What the inspector says while nothing arrives (issue 31, item 6). A browser's WebSocket hands on
 * only whole messages, so a message the server is still sending (or one that never ends, fragment
 * after fragment) cannot be seen or measured from the page: the socket simply looks silent. What
 * the console can say is how long it has waited, and when the wait stops being normal: the client
 * pings every `pingIntervalMs` and a healthy server answers at once, so silence past a ping means
 * the server is busy with something the page cannot see yet, and the heartbeat closes the socket
 * at `closesAfterMs` of silence (stream-client.ts), which bounds what such a message can cost.
 */
import type { SubscriptionState } from './stream-client.ts';

/** Below this a wait is not worth a word. */
const SAY_AFTER_MS = 2_000;
/** A pong comes back within this of its ping on any working connection. */
const PONG_GRACE_MS = 2_000;

const seconds = (ms: number) => `${Math.floor(ms / 1000)} s`;

/** "waiting for the first event for 12 s": an active subscription that has had nothing yet. */
export function firstEventWait(sub: Pick<SubscriptionState, 'status' | 'received' | 'activeSince'>, now: number): string | null {
  if (sub.status !== 'active' || sub.received > 0 || sub.activeSince === null) return null;
  const waited = now - sub.activeSince;
  return waited >= SAY_AFTER_MS ? `waiting for the first event for ${seconds(waited)}` : null;
}

/** The bar's word on a socket silent past a ping: something may be arriving, and when the console gives up. */
export function silenceNote(silence: { since: number; pingIntervalMs: number; closesAfterMs: number } | null, now: number): string | null {
  if (!silence) return null;
  const silent = now - silence.since;
  if (silent < silence.pingIntervalMs + PONG_GRACE_MS) return null;
  return `nothing received for ${seconds(silent)}, not even the answer to a ping: a large message may still be arriving (a browser sees only whole messages); the console closes the socket after ${seconds(silence.closesAfterMs)} without one`;
}
