/**
 * When the window's start-up is over: the first query editor is on screen (or the window opened on
 * another view, or the editor never came within a few seconds). Until then the shell keeps the
 * machine for Monaco: the other views' chunks (app/App.tsx), the describes and the connections'
 * status checks wait, so that neither their downloads nor the main-thread work of their answers
 * (nor the server's) compete with the parsing of Monaco's chunk, which the editor waits for (issue
 * 31). Free of Monaco: the entry chunk imports it.
 */
import { useEffect, useState } from 'react';

/** How long start-up waits for an editor that may never come (its chunk failed to load). */
export const EDITOR_WAIT_MS = 5000;

let resolveEditor: () => void = () => undefined;
let settled = false;

/** Settles once, when the first editor has been created. */
export const editorReady: Promise<void> = new Promise((done) => (resolveEditor = done));

let resolveStartup: () => void = () => undefined;
/** Settles once start-up is over (see above). */
export const startupSettled: Promise<void> = new Promise((done) => (resolveStartup = done));
void startupSettled.then(() => (settled = true));

/** Called by the query editor once it exists; later calls do nothing. */
export function markEditorReady(): void {
  resolveEditor();
  resolveStartup();
}

/** Called when there is no editor to wait for (the window opened on another view); later calls do nothing. */
export function settleStartup(): void {
  resolveStartup();
}

if (typeof setTimeout === 'function') setTimeout(settleStartup, EDITOR_WAIT_MS);

/** Whether start-up is over; re-renders the component once it is. */
export function useStartupSettled(): boolean {
  const [done, setDone] = useState(settled);
  useEffect(() => {
    if (done) return;
    let live = true;
    void startupSettled.then(() => live && setDone(true));
    return () => {
      live = false;
    };
  }, [done]);
  return done;
}
