/**
 * `matches` assertions under `jql-console run` (issue 32.5): a pattern such as `^(a+)+$` against a
 * long near-match backtracks for minutes in JavaScript's engine. A pattern V8's linear-time engine
 * can run (no backreference) runs there, in time proportional to the text. One it cannot runs in a
 * worker thread that is stopped after MATCH_TIMEOUT_MS, and the assertion fails naming the pattern.
 */
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { PatternTest } from '../../shared/collections/assertions.ts';

/** How long a pattern the linear engine cannot run may take on one value. */
export const MATCH_TIMEOUT_MS = 2000;
/** How long a worker thread may take to start on a busy machine (not counted against the pattern). */
const WORKER_START_MS = 10_000;

// The `l` (linear) flag is behind this V8 flag; it is read when a RegExp is made, so setting it here is in time.
setFlagsFromString('--enable-experimental-regexp-engine');

const WORKER = `const { workerData } = require('node:worker_threads');
Atomics.store(workerData.shared, 1, 1);
Atomics.notify(workerData.shared, 1);
const found = new RegExp(workerData.pattern).test(workerData.text);
Atomics.store(workerData.shared, 0, found ? 1 : 2);
Atomics.notify(workerData.shared, 0);`;

export function boundedPatternTest(timeoutMs: number = MATCH_TIMEOUT_MS): PatternTest {
  return (pattern, text) => {
    let linear: RegExp | null = null;
    try {
      linear = new RegExp(pattern, 'l');
    } catch {
      // A backreference: only the backtracking engine runs it, so it runs where it can be stopped.
    }
    if (linear) return linear.test(text);
    return inWorker(pattern, text, timeoutMs);
  };
}

function inWorker(pattern: string, text: string, timeoutMs: number): boolean {
  // [0]: the answer (1 found, 2 not found); [1]: set once the worker runs, so its start-up is not counted.
  const shared = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(WORKER, { eval: true, workerData: { pattern, text, shared } });
  worker.on('error', () => undefined);
  // The run waits here, synchronously, as it would for any match; the worker thread does the work.
  Atomics.wait(shared, 1, 0, WORKER_START_MS);
  const waited = Atomics.wait(shared, 0, 0, timeoutMs);
  void worker.terminate();
  worker.unref();
  if (waited === 'timed-out') throw new Error(`the pattern ${JSON.stringify(pattern)} took longer than ${timeoutMs / 1000} s on a value of ${text.length} characters and was stopped`);
  return Atomics.load(shared, 0) === 1;
}
