/**
 * React bindings of a StreamSession. The log can change tens of thousands of times a second, so its
 * view is re-read at most every LOG_REFRESH_MS (drawing the table and scrolling it to the newest row
 * costs a layout each time: at every animation frame, a flood left the page no time for input); the
 * session's own state (connection, subscriptions, settings) changes rarely and is read directly.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { EventLog, LogView } from './event-log.ts';
import type { SessionState, StreamSession } from './stream-session.ts';

export function useSessionState(session: StreamSession): SessionState {
  return useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
}

export const LOG_REFRESH_MS = 150;

export function useLogView(log: EventLog): LogView {
  const [view, setView] = useState(() => log.view());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = log.subscribe(() => {
      timer ??= setTimeout(() => {
        timer = null;
        setView(log.view());
      }, LOG_REFRESH_MS);
    });
    setView(log.view());
    return () => {
      off();
      if (timer !== null) clearTimeout(timer);
    };
  }, [log]);
  return view;
}

/** The current time, refreshed every `intervalMs` (for the rate chart's moving window). */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
