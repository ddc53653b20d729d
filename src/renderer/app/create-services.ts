/** Builds the app's services once at start: the stores, the query client and the run command. */
import { QueryClient } from '@tanstack/react-query';
import { ConnectionsStore, EMBEDDED_ID } from '../state/connections-store.ts';
import { EditorBus } from '../state/editor-bus.ts';
import type { Platform } from '../state/platform.ts';
import { ResultsStore } from '../state/results-store.ts';
import { RunLog } from '../state/run-log.ts';
import { runTab } from '../state/run-query.ts';
import type { Services } from '../state/services.ts';
import { TabsStore } from '../state/tabs-store.ts';
import { Toasts } from '../state/toasts.ts';
import { WorkbenchStore } from '../state/workbench-store.ts';

export function createServices(platform: Platform): Services {
  const storage = window.localStorage;
  const connections = new ConnectionsStore(storage, platform.secrets);
  const tabs = new TabsStore(storage, EMBEDDED_ID);
  const results = new ResultsStore();
  const runLog = new RunLog();
  const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: true } } });
  let worker: Worker | null = null;
  const getWorker = () => {
    try {
      worker ??= new Worker(new URL('../response/parse.worker.ts', import.meta.url), { type: 'module', name: 'jql-parse' });
      return worker;
    } catch {
      // No worker (a strict CSP elsewhere, an old engine): parse on the main thread instead.
      return null;
    }
  };
  void connections.loadSecrets();
  window.addEventListener('pagehide', () => tabs.flush());
  return {
    platform,
    connections,
    tabs,
    results,
    editorBus: new EditorBus(),
    toasts: new Toasts(),
    queryClient,
    runLog,
    workbench: new WorkbenchStore(storage),
    run: (tabId) => runTab({ transport: platform.transport, connections, tabs, results, runLog, parse: { getWorker } }, tabId),
  };
}
