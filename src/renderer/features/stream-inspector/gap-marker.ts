/**
 * Whether a resumed subscription can have missed anything (docs/protocol.md "Streams"). The client resumes with
 * `since` = the last sequence number it covered; the server answers `subscribed` with its latest
 * number and replays what it retains in between. Event numbers are shared by every namespace, so a
 * jump between two replayed numbers is normal; what can lose events is a log that restarted (its
 * latest number is behind ours) or more events in between than the server retains.
 */
export type GapVerdict = 'nothing-missed' | 'possibly-missed' | 'missed';

export interface GapMarker {
  subscription: string;
  /** The last seq covered before the break, sent as `since`. */
  since: number;
  /** The server's latest seq when it answered `subscribed`; null when it refused the subscription. */
  latest: number | null;
  verdict: GapVerdict;
  /** One sentence for the log. */
  reason: string;
  /** The close code that ended the previous connection (4008: the console fell behind). */
  closeCode: number | null;
}

export const DEFAULT_RETENTION = 10_000;
export const FELL_BEHIND_CODE = 4008;

function closeNote(closeCode: number | null): string {
  return closeCode === FELL_BEHIND_CODE ? 'The server dropped the stream because the console fell behind (4008). ' : '';
}

export function judgeResume(subscription: string, since: number, latest: number, retention: number, closeCode: number | null): GapMarker {
  const base = { subscription, since, latest, closeCode };
  const note = closeNote(closeCode);
  if (latest < since) {
    return { ...base, verdict: 'missed', reason: `${note}The server's event log restarted (its latest seq ${latest} is before the last seen ${since}): events in between are lost.` };
  }
  if (latest === since) {
    return { ...base, verdict: 'nothing-missed', reason: `${note}Resumed at seq ${since}: nothing missed.` };
  }
  const logged = latest - since;
  if (logged > retention) {
    return {
      ...base,
      verdict: 'possibly-missed',
      reason: `${note}${logged} events were logged since seq ${since}, more than the server retains (${retention}): the oldest may be gone.`,
    };
  }
  return { ...base, verdict: 'nothing-missed', reason: `${note}Resumed from seq ${since}, replaying up to seq ${latest}: nothing missed.` };
}

export function refusedResume(subscription: string, since: number, message: string, closeCode: number | null): GapMarker {
  return { subscription, since, latest: null, verdict: 'missed', reason: `${closeNote(closeCode)}Could not resume from seq ${since}: ${message}`, closeCode };
}
