/**
 * The app's services in one React context: the platform, the stores and the commands that cross
 * features (run a tab, reveal an error). Created once in app/, read by features with useServices().
 */
import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ConnectionsStore } from './connections-store.ts';
import type { EditorBus } from './editor-bus.ts';
import type { ExternalStore } from './external-store.ts';
import type { Platform } from './platform.ts';
import type { ResultsStore } from './results-store.ts';
import type { RunLog } from './run-log.ts';
import type { RunTabOptions } from './run-query.ts';
import type { TabsStore } from './tabs-store.ts';
import type { Toasts } from './toasts.ts';
import type { VariableSource } from './variables.ts';
import type { WorkbenchStore } from './workbench-store.ts';

export interface Services {
  platform: Platform;
  connections: ConnectionsStore;
  tabs: TabsStore;
  results: ResultsStore;
  editorBus: EditorBus;
  toasts: Toasts;
  queryClient: QueryClient;
  /** Every run as it happens (the history records them). */
  runLog: RunLog;
  workbench: WorkbenchStore;
  /** Each connection's `{{variables}}` (kept with the saved queries). */
  variables: VariableSource;
  /** Runs a tab's query; `allowWrite` is "Run once anyway" on a read-only connection. */
  run(tabId: string, options?: RunTabOptions): Promise<void>;
  /** Cancels a tab's running query (Cancel, Escape). */
  cancel(tabId: string): void;
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside ServicesContext');
  return services;
}

export function useStore<S>(store: ExternalStore<S>): S {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
