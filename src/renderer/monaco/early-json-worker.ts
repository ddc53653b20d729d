/**
 * The JSON language's worker, started as Monaco's chunk runs (monaco.ts imports this): its script
 * loads and boots on its own thread while the main thread builds the first editor, instead of after
 * it. The editor's completion and validation wait for this worker, and every query tab is JSON, so it
 * is needed from the start; Monaco takes it (monaco.ts getWorker) when it asks for its first JSON
 * worker. Not earlier (with the app's entry chunk): on a machine with two cores its thread then
 * competed with the parsing of Monaco's chunk, and the editor was usable later (issue 31).
 */
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';

let early: Worker | null = typeof Worker === 'function' ? new JsonWorker() : null;

/** The worker started early (once), then a new one for each later request. */
export function takeJsonWorker(): Worker {
  const worker = early ?? new JsonWorker();
  early = null;
  return worker;
}
