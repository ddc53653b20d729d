/**
 * What `jql-console run` makes for itself (the embedded server's temporary data directory) goes
 * even when the run is stopped: Ctrl+C (SIGINT) or a CI runner's timeout (SIGTERM). Node's default
 * for those signals is to exit at once, skipping every `finally`; with this, `cleanup` runs first,
 * then the process exits with 128 + the signal's number, as a shell reports a stopped command.
 */
import { constants } from 'node:os';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Runs `cleanup` on SIGINT/SIGTERM, then exits; the returned function stops watching (the run ended). */
export function cleanUpOnStop(cleanup: () => Promise<void> | void): () => void {
  const stop = (signal: NodeJS.Signals): void => {
    unwatch();
    void (async () => {
      try {
        await cleanup();
      } finally {
        process.exit(128 + (constants.signals[signal] ?? 0));
      }
    })();
  };
  const unwatch = (): void => {
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  return unwatch;
}

/** Waits for `close` at most `ms`: a request still running must not keep a stopped run alive. */
export async function closeWithin(close: () => Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([close().then(() => true as const, () => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
