/**
 * React bindings of a StreamSession. The log can change thousands of times a second, so its view
 * is re-read at most once per animation frame; the session's own state (connection, subscriptions,
 * settings) changes rarely and is read directly.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { EventLog, LogView } from './event-log.ts';
import type { SessionState, StreamSession } from './stream-session.ts';

export function useSessionState(session: StreamSession): SessionState {
  return useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
}

const nextFrame: (callback: () => void) => number =
  typeof requestAnimationFrame === 'function' ? (cb) => requestAnimationFrame(cb) : (cb) => setTimeout(cb, 16) as unknown as number;
const cancelFrame: (handle: number) => void = typeof cancelAnimationFrame === 'function' ? (h) => cancelAnimationFrame(h) : (h) => clearTimeout(h);

export function useLogView(log: EventLog): LogView {
  const [view, setView] = useState(() => log.view());
  useEffect(() => {
    let frame: number | null = null;
    const off = log.subscribe(() => {
      frame ??= nextFrame(() => {
        frame = null;
        setView(log.view());
      });
    });
    setView(log.view());
    return () => {
      off();
      if (frame !== null) cancelFrame(frame);
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
