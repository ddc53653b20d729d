import { describe, expect, it } from 'vitest';
import type { LogEntry } from './event-log.ts';
import { rowTime } from './event-time.ts';

const event = (at: string): LogEntry => ({ kind: 'event', index: 0, receivedAt: Date.UTC(2026, 0, 1, 12, 0, 0), subscription: 's', event: 'created', namespace: 'a.B', seq: 1, at, record: null, recordId: null, bytes: 10, replayed: false });

describe('the time of a log row', () => {
  it("is the server's `at` when it is a date", () => {
    const at = new Date(2026, 0, 2, 3, 4, 5, 6);
    expect(rowTime(event(at.toISOString()))).toEqual({ text: '03:04:05.006', invalid: null });
  });

  it('says an `at` that is not a date is not one, instead of showing the received time as if it were the server’s (issue 31.6)', () => {
    const time = rowTime(event('yesterday-ish'));
    expect(time.text).toBe('not a date');
    expect(time.invalid).toMatch(/The server's `at` is not a date: "yesterday-ish" \(received at \d\d:\d\d:\d\d\.\d{3}\)/);
  });

  it('is the received time for a marker', () => {
    const received = new Date(2026, 0, 1, 8, 9, 10, 11).getTime();
    expect(rowTime({ kind: 'marker', index: 0, receivedAt: received, level: 'info', text: 'Connected.', subscription: null })).toEqual({ text: '08:09:10.011', invalid: null });
  });
});
