/**
 * Entry of the renderer: pick the platform (desktop bridge or browser), read the stored documents,
 * build services, render.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { createServices } from './app/create-services.ts';
import { documentStorageFor, loadDocuments } from './app/load-documents.ts';
import { createWorkbenchServices } from './app/workbench-services.ts';
import { detectPlatform } from './state/platform.ts';
import './app/app.css';
import './app/safety.css';

async function start(): Promise<void> {
  const platform = detectPlatform();
  const documents = await loadDocuments(documentStorageFor(window.jql, globalThis.indexedDB), window.localStorage);
  const { services, savedQueries } = createServices(platform, documents);
  const workbench = createWorkbenchServices(services, savedQueries);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App services={services} workbench={workbench} />
    </StrictMode>,
  );
}

void start();
