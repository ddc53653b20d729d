/**
 * What differs between the desktop app and a browser tab, behind one interface: the transport, the
 * secret store, saving files, and how the embedded server is found (Electron main tells us; in a
 * browser it is the server that served this page, described by /console-config.json).
 */
import type { ConnectionSpec, EmbeddedServerStatus, JqlBridge } from '../../shared/bridge.ts';
import { isConsoleConfig } from '../../shared/console-config.ts';
import { AnswerLimits } from '../transport/answer-limits.ts';
import { createBrowserTransport } from '../transport/browser-transport.ts';
import { createElectronTransport } from '../transport/electron-transport.ts';
import { currentPage, localAdminHeaders, type LocalAdminPage } from '../transport/local-admin-secret.ts';
import type { Transport } from '../transport/transport.ts';
import { createBridgeSecretStore, createMemorySecretStore, type SecretStore } from './secret-store.ts';

/**
 * The embedded server as the page learns of it. Desktop: main's status (main signs in as the local
 * admin, the page holds nothing). Browser mode: console-config.json, which may still carry a token
 * for this page to send (`pageToken`), or only say that the page's cookie signs it in.
 */
export type EmbeddedInfo = EmbeddedServerStatus | { state: 'running'; url: string; workspace: string | null; localAdmin: boolean; pageToken?: string };

/**
 * Told of every connection before its first request: main's registry in the desktop app (origin,
 * credentials, answer limit), the transport's answer limits in browser mode.
 */
export interface ConnectionRegistryPort {
  register(spec: ConnectionSpec): void;
  forget(id: string): void;
}

export interface Platform {
  kind: 'electron' | 'browser';
  transport: Transport;
  secrets: SecretStore;
  connectionRegistry?: ConnectionRegistryPort;
  /** Resolves with where the file went (a path, or "Downloads"), or null when the user cancelled. */
  saveFile(suggestedName: string, data: Blob): Promise<string | null>;
  /** Calls back with the embedded server's status now and whenever it changes. */
  watchEmbedded(listener: (status: EmbeddedInfo) => void): () => void;
  /** Electron only: File > Open Workspace from a button. */
  openWorkspace?: () => Promise<void>;
}

export function createElectronPlatform(bridge: JqlBridge): Platform {
  return {
    kind: 'electron',
    transport: createElectronTransport(bridge),
    secrets: createBridgeSecretStore(bridge),
    connectionRegistry: {
      // Sent before any request for the connection (IPC keeps the order); a refusal is main's to report on the request.
      register: (spec) => void bridge.registerConnection(spec).catch(() => undefined),
      forget: (id) => void bridge.forgetConnection(id).catch(() => undefined),
    },
    async saveFile(suggestedName, data) {
      const result = await bridge.saveFile({ suggestedName, data: new Uint8Array(await data.arrayBuffer()) });
      return result.saved ? result.path : null;
    },
    watchEmbedded(listener) {
      let live = true;
      const off = bridge.onEmbeddedChanged((status) => live && listener(status));
      void bridge.getAppInfo().then((info) => live && listener(info.embedded));
      return () => {
        live = false;
        off();
      };
    },
    openWorkspace: () => bridge.openWorkspace(),
  };
}

export function createBrowserPlatform(location: Pick<Location, 'origin' | 'href'>, fetchImpl: typeof fetch = (i, init) => fetch(i, init)): Platform {
  // The connections store tells the transport each connection's answer limit, as it tells main.
  const answerLimits = new AnswerLimits();
  return {
    kind: 'browser',
    transport: createBrowserTransport(fetchImpl, answerLimits),
    secrets: createMemorySecretStore(),
    connectionRegistry: answerLimits,
    async saveFile(suggestedName, data) {
      const url = URL.createObjectURL(data);
      const a = document.createElement('a');
      a.href = url;
      a.download = suggestedName;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return 'Downloads';
    },
    watchEmbedded(listener) {
      let live = true;
      void readConsoleConfig(location, fetchImpl).then((status) => live && listener(status));
      return () => {
        live = false;
      };
    },
  };
}

export async function readConsoleConfig(location: Pick<Location, 'origin' | 'href'>, fetchImpl: typeof fetch, page: LocalAdminPage | null = currentPage()): Promise<EmbeddedInfo> {
  try {
    const url = new URL('console-config.json', location.href).href;
    // The server says `localAdmin: true` only to a request with both halves: the cookie and the page secret.
    const response = await fetchImpl(url, { headers: { Accept: 'application/json', ...localAdminHeaders(url, page) } });
    const config: unknown = await response.json();
    if (!response.ok || !isConsoleConfig(config)) throw new Error(`console-config.json answered ${response.status}`);
    return {
      state: 'running',
      url: `${location.origin}${config.basePath}`,
      workspace: null,
      // The page is the local admin through its HttpOnly launch cookie and its page secret: no token reaches it.
      localAdmin: config.localAdmin === true,
    };
  } catch (err) {
    return { state: 'failed', workspace: null, message: `This page was not served by jql-console serve (${(err as Error).message}).` };
  }
}

export function detectPlatform(): Platform {
  return window.jql ? createElectronPlatform(window.jql) : createBrowserPlatform(window.location);
}
