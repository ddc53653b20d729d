/**
 * Builds the app's services once at start: the stores (tabs and saved queries from the documents
 * read before the window drew), the query client and the run command.
 */
import { QueryClient } from '@tanstack/react-query';
import { LEGACY_STORAGE_KEY, SavedQueriesStore } from '../features/saved-queries/index.ts';
import { appParseWorker } from '../response/parse-response.ts';
import { ConnectionsStore, EMBEDDED_ID } from '../state/connections-store.ts';
import { EditorBus } from '../state/editor-bus.ts';
import type { Platform } from '../state/platform.ts';
import { ResultsStore } from '../state/results-store.ts';
import { RunLog } from '../state/run-log.ts';
import { cancelTab, runTab, type RunDeps } from '../state/run-query.ts';
import { schemaKeys } from '../state/query-keys.ts';
import type { DescribeOutcome } from '../transport/jql-client.ts';
import type { Services } from '../state/services.ts';
import { LEGACY_TABS_KEY } from '../state/tabs-persistence.ts';
import { TabsStore } from '../state/tabs-store.ts';
import { Toasts } from '../state/toasts.ts';
import { WorkbenchStore } from '../state/workbench-store.ts';
import type { LoadedDocuments } from './load-documents.ts';

/** A toast about something not saved stays long enough to be read and acted on. */
export const NOT_SAVED_TOAST_MS = 20_000;

export interface CreatedServices {
  services: Services;
  savedQueries: SavedQueriesStore;
}

export function createServices(platform: Platform, documents: LoadedDocuments): CreatedServices {
  const storage = window.localStorage;
  const toasts = new Toasts();
  const notSaved = (message: string) => toasts.show(message, 'error', NOT_SAVED_TOAST_MS);
  const connections = new ConnectionsStore(storage, platform.secrets, { onSaveError: notSaved, ...(platform.connectionRegistry ? { registry: platform.connectionRegistry } : {}) });
  const tabs = new TabsStore(documents.tabs, EMBEDDED_ID, {
    storage: documents.storage,
    onSaveError: notSaved,
    // The copy an older version kept in localStorage goes once the tabs are stored.
    onAllSaved: () => documents.tabs?.migrated && storage.removeItem(LEGACY_TABS_KEY),
  });
  const savedQueries = new SavedQueriesStore(documents.saved, { storage: documents.storage, onSaveError: notSaved });
  if (documents.savedMigrated) void savedQueries.saveAll().then(() => storage.removeItem(LEGACY_STORAGE_KEY), () => undefined);
  for (const problem of documents.problems) toasts.show(problem, 'error', NOT_SAVED_TOAST_MS);
  const results = new ResultsStore();
  const runLog = new RunLog();
  const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: true } } });
  const deps: RunDeps = {
    transport: platform.transport,
    connections,
    tabs,
    results,
    runLog,
    variables: savedQueries,
    parse: { getWorker: appParseWorker },
    inflight: new Map(),
    describeOf: (id) => {
      const c = connections.get(id);
      return c ? (queryClient.getQueryData<DescribeOutcome>(schemaKeys.describe(c.id, c.baseUrl))?.describe ?? null) : null;
    },
  };
  void connections.loadSecrets();
  // Write what is pending as soon as the page may go away (hidden first, then unloaded).
  window.addEventListener('pagehide', () => void tabs.flush());
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && void tabs.flush());
  // A tab whose document could not be stored exists only in this page: a browser asks before leaving.
  // (Not in the desktop app, where preventing unload would silently keep the window from closing.)
  if (platform.kind === 'browser') {
    window.addEventListener('beforeunload', (e) => {
      if (Object.values(tabs.getSnapshot().unsaved).includes('failed')) e.preventDefault();
    });
  }
  const services: Services = {
    platform,
    connections,
    tabs,
    results,
    editorBus: new EditorBus(),
    toasts,
    queryClient,
    runLog,
    workbench: new WorkbenchStore(storage),
    variables: savedQueries,
    run: (tabId, options) => runTab(deps, tabId, options),
    cancel: (tabId) => void cancelTab(deps, tabId),
  };
  return { services, savedQueries };
}
