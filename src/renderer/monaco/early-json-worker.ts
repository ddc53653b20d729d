/**
 * The JSON language's worker, started as the app starts (App.tsx imports this beside its fetch of
 * the Query view): its script loads and boots on its own thread while the main thread loads and
 * evaluates Monaco and builds the first editor, instead of after them. The editor's completion and
 * validation wait for this worker, and every query tab is JSON, so it is needed from the start;
 * Monaco takes it (monaco.ts getWorker) when it asks for its first JSON worker.
 */
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';

let early: Worker | null = typeof Worker === 'function' ? new JsonWorker() : null;

/** The worker started early (once), then a new one for each later request. */
export function takeJsonWorker(): Worker {
  const worker = early ?? new JsonWorker();
  early = null;
  return worker;
}
