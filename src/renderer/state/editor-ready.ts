/**
 * When the first query editor is on screen. The shell waits for it before fetching the other views'
 * chunks in the background (app/App.tsx), so that prefetch never competes with Monaco's chunk for the
 * network and the main thread while the window opens. Free of Monaco: the entry chunk imports it.
 */
let resolve: () => void = () => undefined;

/** Settles once, when the first editor has been created. */
export const editorReady: Promise<void> = new Promise((done) => (resolve = done));

/** Called by the query editor once it exists; later calls do nothing. */
export function markEditorReady(): void {
  resolve();
}
