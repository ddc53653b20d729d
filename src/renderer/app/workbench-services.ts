/**
 * The part-2 features' services, made once at start beside the core services: the run history
 * (SQLite in main through the bridge, IndexedDB in a browser) fed by the run log, the saved
 * queries, the collection folders, the upload transport and the stream sessions, each in its
 * desktop or browser form.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { JqlBridge } from '../../shared/bridge.ts';
import { createFoldersClient, type FoldersClient } from '../features/collection-folders/index.ts';
import { BridgeHistoryStore, historyKeys, historyRunFrom, IdbHistoryStore, MemoryHistoryStore, type HistoryStore } from '../features/history/index.ts';
import type { SavedQueriesStore } from '../features/saved-queries/index.ts';
import { bridgeSocketConnector, createStreamSession, StreamSession, streamUrl } from '../features/stream-inspector/index.ts';
import { createBridgeUploadTransport, createXhrUploadTransport, type UploadTransport } from '../features/upload-form/index.ts';
import { bridgeCloneClient, routeCloneClient, type CloneClient } from '../features/reproduce-locally/index.ts';
import { EMBEDDED_ID } from '../state/connections-store.ts';
import type { RunLog } from '../state/run-log.ts';
import { redactSecrets } from '../state/safety/redact-secrets.ts';
import type { Services } from '../state/services.ts';
import { StreamSessions } from './stream-sessions.ts';

export interface WorkbenchServices {
  history: HistoryStore;
  savedQueries: SavedQueriesStore;
  /** The collection folders the embedded server serves (to its local admin). */
  folders: FoldersClient;
  uploadTransport: UploadTransport;
  streams: StreamSessions;
  /** Electron: opens a link in the system browser. Browser mode: undefined (plain links). */
  openExternal?: (url: string) => void;
  /** Saves text to a file the user picks (Electron's save dialog, or a browser download). */
  saveText(text: string, suggestedName: string, type: string): Promise<string | null>;
  /** "Reproduce locally": main in the desktop app, the console's own server in a browser. */
  clones: CloneClient;
}

function historyStore(bridge: JqlBridge | undefined): HistoryStore {
  if (bridge) return new BridgeHistoryStore(bridge);
  // A browser without IndexedDB (some private modes) still gets a history for the session.
  return typeof indexedDB !== 'undefined' ? new IdbHistoryStore(indexedDB) : new MemoryHistoryStore();
}

/**
 * Every run reported to the run log goes into the history (with the values of password and token
 * keys redacted: the history is on disk); an open history panel then refreshes.
 */
export function recordRuns(runLog: RunLog, history: HistoryStore, queryClient: QueryClient, onError: (message: string) => void): () => void {
  return runLog.subscribe((run) => {
    history
      .add(historyRunFrom(run.connection, redactSecrets(run.document), run.outcome, run.at, run.tabId))
      .then(() => queryClient.invalidateQueries({ queryKey: historyKeys.all }))
      .catch((err: unknown) => onError(`The run was not recorded in the history: ${(err as Error).message}`));
  });
}

export function createWorkbenchServices(services: Services, savedQueries: SavedQueriesStore, bridge: JqlBridge | undefined = window.jql): WorkbenchServices {
  const { connections, queryClient, platform, runLog } = services;
  const history = historyStore(bridge);
  recordRuns(runLog, history, queryClient, (message) => services.toasts.show(message, 'error'));

  const token = (connectionId: string) => {
    const target = connections.target(connectionId);
    return target?.authClass === 'jwt' ? target.token : null;
  };
  const makeSession = (connectionId: string): StreamSession => {
    const connection = connections.get(connectionId)!;
    // The desktop page may open no socket itself (CSP): main carries it, with the connection's credential.
    if (bridge) {
      const signedIn = () => connections.get(connectionId)?.signedIn === true || connection.authClass === 'session';
      return new StreamSession({ connect: bridgeSocketConnector(bridge, connectionId, streamUrl(connection.baseUrl, null), signedIn) });
    }
    return createStreamSession({ baseUrl: connection.baseUrl, getToken: () => token(connectionId) });
  };

  return {
    history,
    savedQueries,
    folders: createFoldersClient(platform.transport, () => connections.target(EMBEDDED_ID)),
    uploadTransport: bridge ? createBridgeUploadTransport(bridge) : createXhrUploadTransport(),
    streams: new StreamSessions(connections, makeSession),
    openExternal: bridge ? (url) => void bridge.openExternal(url) : undefined,
    saveText: (text, suggestedName, type) => platform.saveFile(suggestedName, new Blob([text], { type })),
    clones: bridge ? bridgeCloneClient(bridge) : routeCloneClient(platform.transport, () => connections.target(EMBEDDED_ID)),
  };
}
