/**
 * The time a log row shows: the server's `at` for an event, else when the console received it. An
 * `at` that is not a date is said to be so, never replaced by a normal-looking time (the received
 * time would pass for the server's).
 */
import type { LogEntry } from './event-log.ts';

export interface RowTime {
  text: string;
  /** Set when the event's `at` is not a date: the sentence that says so. */
  invalid: string | null;
}

function clock(ms: number): string {
  const time = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}.${pad(time.getMilliseconds(), 3)}`;
}

export function rowTime(entry: LogEntry): RowTime {
  if (entry.kind !== 'event' || !entry.at) return { text: clock(entry.receivedAt), invalid: null };
  const at = Date.parse(entry.at);
  if (Number.isNaN(at)) return { text: 'not a date', invalid: `The server's \`at\` is not a date: ${JSON.stringify(entry.at.slice(0, 200))} (received at ${clock(entry.receivedAt)}).` };
  return { text: clock(at), invalid: null };
}
