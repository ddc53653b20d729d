/**
 * Entry of the renderer: pick the platform (desktop bridge or browser), read the stored documents,
 * build services, render. If that fails with the stored documents, start again without them
 * (app/safe-start.ts): the console always comes up.
 */
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { App } from './app/App.tsx';
import { createServices } from './app/create-services.ts';
import { documentStorageFor, loadDocuments, type LoadedDocuments } from './app/load-documents.ts';
import { exportStoredDocuments, withoutStoredDocuments } from './app/safe-start.ts';
import { StartupGuard } from './app/StartupGuard.tsx';
import { createWorkbenchServices } from './app/workbench-services.ts';
import { detectPlatform, type Platform } from './state/platform.ts';
import type { DocumentStorage } from './state/document-storage.ts';
import './app/app.css';
import './app/safety.css';

let root: Root | null = null;

function mount(platform: Platform, documents: LoadedDocuments, stored: DocumentStorage, safe: boolean): void {
  const retry = (error: Error) => {
    if (safe) return;
    // Unmounting inside React's own error handling is not allowed: leave it a tick.
    setTimeout(() => mount(platform, withoutStoredDocuments(error.message), stored, true));
  };
  try {
    const { services, savedQueries } = createServices(platform, documents);
    const workbench = createWorkbenchServices(services, savedQueries);
    if (safe) {
      services.toasts.show('Export stored tabs: the records as they were stored, to a file.', 'info', 60_000, {
        label: 'Export stored tabs',
        run: () => void exportStoredDocuments(stored).then((text) => platform.saveFile('jql-console-stored-tabs.json', new Blob([text], { type: 'application/json' }))),
      });
    }
    root?.unmount();
    root = createRoot(document.getElementById('root')!);
    root.render(
      <StrictMode>
        <StartupGuard onFail={safe ? undefined : retry}>
          <App services={services} workbench={workbench} />
        </StartupGuard>
      </StrictMode>,
    );
  } catch (err) {
    if (safe) throw err;
    retry(err instanceof Error ? err : new Error(String(err)));
  }
}

async function start(): Promise<void> {
  const platform = detectPlatform();
  const stored = documentStorageFor(window.jql, globalThis.indexedDB);
  const documents = await loadDocuments(stored, window.localStorage);
  mount(platform, documents, stored, false);
}

void start();
