/**
 * Builds `window.jql` from ipcRenderer: one named, typed method per channel of the shared map and
 * nothing else, so the page can never send to an arbitrary channel and never
 * sees ipcRenderer itself. Split from index.ts so it is tested without Electron.
 */
import type { BridgeEventMap, EventChannel, InvokeArgs, InvokeChannel, InvokeResult, JqlBridge } from '../shared/bridge.ts';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

export function createBridge(ipc: IpcRendererLike): JqlBridge {
  const invoke = <C extends InvokeChannel>(channel: C, ...args: InvokeArgs<C>) => ipc.invoke(channel, ...args) as Promise<InvokeResult<C>>;
  const subscribe = <C extends EventChannel>(channel: C, listener: (payload: BridgeEventMap[C]) => void) => {
    // The Electron event object (with its sender) never reaches the page.
    const wrapped = (_event: unknown, payload: unknown) => listener(payload as BridgeEventMap[C]);
    ipc.on(channel, wrapped);
    return () => {
      ipc.removeListener(channel, wrapped);
    };
  };
  return {
    getAppInfo: () => invoke('app:get-info'),
    request: (request) => invoke('http:request', request),
    registerConnection: (spec) => invoke('connections:register', spec),
    forgetConnection: (id) => invoke('connections:forget', id),
    setSecret: (key, value) => invoke('secrets:set', key, value),
    hasSecret: (key) => invoke('secrets:has', key),
    deleteSecret: (key) => invoke('secrets:delete', key),
    saveFile: (request) => invoke('file:save', request),
    openExternal: (url) => invoke('shell:open-external', url),
    openWorkspace: () => invoke('workspace:open'),
    openRecentWorkspace: (path) => invoke('workspace:open-recent', path),
    onEmbeddedChanged: (listener) => subscribe('embedded:changed', listener),
    onRecentWorkspacesChanged: (listener) => subscribe('workspace:recent-changed', listener),
    upload: (request) => invoke('http:upload', request),
    cancelUpload: (uploadId) => invoke('http:upload-cancel', uploadId),
    onUploadProgress: (listener) => subscribe('http:upload-progress', listener),
    wsOpen: (request) => invoke('ws:open', request),
    wsSend: (socketId, data) => invoke('ws:send', socketId, data),
    wsClose: (socketId, code, reason) => invoke('ws:close', socketId, code, reason),
    wsAck: (socketId, chars) => invoke('ws:ack', socketId, chars),
    onWsMessage: (listener) => subscribe('ws:message', listener),
    onWsClosed: (listener) => subscribe('ws:closed', listener),
    historyAdd: (run) => invoke('history:add', run),
    historyList: (query) => invoke('history:list', query),
    historyGet: (id) => invoke('history:get', id),
    historyDelete: (id) => invoke('history:delete', id),
    historyClear: () => invoke('history:clear'),
    historyCount: () => invoke('history:count'),
    documentsGet: (key) => invoke('documents:get', key),
    documentsWrite: (changes) => invoke('documents:write', changes),
    cloneStart: (request) => invoke('clone:start', request),
    cloneStatus: (id) => invoke('clone:status', id),
    cloneCancel: (id) => invoke('clone:cancel', id),
  };
}
