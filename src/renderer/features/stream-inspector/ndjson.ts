/**
 * The log as NDJSON: one event message per line, in the wire shape of docs/protocol.md "Streams" (so a file can
 * be replayed or diffed against the server's log), plus `received_at` and `replayed`. Markers are
 * the console's own notes and are left out.
 */
import { stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import type { LogEntry } from './event-log.ts';

export function toNdjson(entries: Iterable<LogEntry>): string {
  const lines: string[] = [];
  for (const e of entries) {
    if (e.kind !== 'event') continue;
    lines.push(
      // The digits the server sent, not a double's rounding of them.
      stringifyKeepingNumbers({
        type: 'event',
        subscription: e.subscription,
        event: e.event,
        namespace: e.namespace,
        seq: e.seq,
        at: e.at,
        record: e.record,
        received_at: new Date(e.receivedAt).toISOString(),
        ...(e.replayed ? { replayed: true } : {}),
      }),
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

export function exportFileName(now: Date): string {
  return `jql-stream-${now.toISOString().replace(/[:.]/g, '-')}.ndjson`;
}
