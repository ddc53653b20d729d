/**
 * The typed channel map between Electron main and the preload (STYLE.md example 6): one entry per
 * channel, its arguments and its result. Main registers a handler per invoke channel, the preload
 * exposes one named method per channel (`JqlBridge`), and the renderer sees only `window.jql`.
 */

/** The embedded server as main sees it; sent on start and again when File > Open Workspace swaps it. */
export type EmbeddedServerStatus =
  | { state: 'starting'; workspace: string | null }
  | { state: 'running'; url: string; workspace: string | null; localAdminToken?: string }
  | { state: 'failed'; workspace: string | null; message: string };

export interface AppInfo {
  appVersion: string;
  platform: string;
  embedded: EmbeddedServerStatus;
  recentWorkspaces: string[];
}

export const PROXY_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;
export type ProxyMethod = (typeof PROXY_METHODS)[number];

/** An HTTP request that main performs for the renderer (remote servers, so cookies and CORS behave like a real client). */
export interface ProxyRequest {
  /** Cookies are kept per connection: each connection id gets its own cookie jar in main. */
  connectionId: string;
  url: string;
  method: ProxyMethod;
  headers: Record<string, string>;
  body?: string;
  timeoutMs?: number;
}

export interface ProxyResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  /** Raw bytes: the renderer decides where (and on which thread) to decode and parse them. */
  body: Uint8Array;
  timeMs: number;
}

export interface SaveFileRequest {
  suggestedName: string;
  data: string | Uint8Array;
}

export type SaveFileResult = { saved: true; path: string } | { saved: false };

export interface BridgeInvokeMap {
  'app:get-info': { args: []; result: AppInfo };
  'http:request': { args: [request: ProxyRequest]; result: ProxyResponse };
  'secrets:get': { args: [key: string]; result: string | null };
  'secrets:set': { args: [key: string, value: string]; result: void };
  'secrets:delete': { args: [key: string]; result: void };
  'file:save': { args: [request: SaveFileRequest]; result: SaveFileResult };
  'shell:open-external': { args: [url: string]; result: boolean };
  'workspace:open': { args: []; result: void };
  'workspace:open-recent': { args: [path: string]; result: void };
}

export interface BridgeEventMap {
  'embedded:changed': EmbeddedServerStatus;
  'workspace:recent-changed': string[];
}

export type InvokeChannel = keyof BridgeInvokeMap;
export type EventChannel = keyof BridgeEventMap;
export type InvokeArgs<C extends InvokeChannel> = BridgeInvokeMap[C]['args'];
export type InvokeResult<C extends InvokeChannel> = BridgeInvokeMap[C]['result'];

/** Every invoke channel, as data: main registers exactly these and the preload rejects anything else. */
export const INVOKE_CHANNELS = [
  'app:get-info',
  'http:request',
  'secrets:get',
  'secrets:set',
  'secrets:delete',
  'file:save',
  'shell:open-external',
  'workspace:open',
  'workspace:open-recent',
] as const satisfies readonly InvokeChannel[];

export const EVENT_CHANNELS = ['embedded:changed', 'workspace:recent-changed'] as const satisfies readonly EventChannel[];

/** Secret keys are short identifiers the renderer chooses, e.g. `token:conn-1a2b`. */
export const SECRET_KEY_PATTERN = /^[A-Za-z0-9:._-]{1,128}$/;

/** What the preload exposes as `window.jql`: one named method per channel, nothing else. */
export interface JqlBridge {
  getAppInfo(): Promise<AppInfo>;
  request(request: ProxyRequest): Promise<ProxyResponse>;
  getSecret(key: string): Promise<string | null>;
  setSecret(key: string, value: string): Promise<void>;
  deleteSecret(key: string): Promise<void>;
  saveFile(request: SaveFileRequest): Promise<SaveFileResult>;
  openExternal(url: string): Promise<boolean>;
  openWorkspace(): Promise<void>;
  openRecentWorkspace(path: string): Promise<void>;
  /** Returns a function that removes the listener. */
  onEmbeddedChanged(listener: (status: EmbeddedServerStatus) => void): () => void;
  onRecentWorkspacesChanged(listener: (paths: string[]) => void): () => void;
}
