/**
 * Electron main: starts the embedded JQL server, opens the console window, and wires the checked
 * IPC channels. Kept thin on purpose; each decision lives in a small module beside this one that is
 * unit-tested with the electron module stubbed.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, net, protocol, safeStorage, session, shell } from 'electron';
import WebSocket from 'ws';
import type { AppInfo, BridgeEventMap, EmbeddedServerStatus, EventChannel } from '../shared/bridge.ts';
import { CloneJobs, start } from '../server/index.ts';
import { createAppProtocolHandler } from './app-protocol.ts';
import { APP_ENTRY_URL, APP_SCHEME, createAppUrlMatcher } from './app-url.ts';
import { contentSecurityPolicy } from './csp.ts';
import { EmbeddedServer, type StartServerFn } from './embedded-server.ts';
import { appHandlers } from './ipc/app-handlers.ts';
import { cloneHandlers } from './ipc/clone-handlers.ts';
import { SqliteHistoryStore } from './history/sqlite-history-store.ts';
import { fileHandlers } from './ipc/file-handlers.ts';
import { historyHandlers } from './ipc/history-handlers.ts';
import { documentHandlers } from './ipc/document-handlers.ts';
import { SqliteDocumentStore } from './documents/sqlite-document-store.ts';
import { httpHandlers } from './ipc/http-handlers.ts';
import { registerIpcHandlers } from './ipc/register.ts';
import { secretHandlers } from './ipc/secret-handlers.ts';
import { isTrustedSender } from './ipc/sender.ts';
import { uploadHandlers } from './ipc/upload-handlers.ts';
import { validators } from './ipc/validators.ts';
import { workspaceHandlers } from './ipc/workspace-handlers.ts';
import { wsHandlers } from './ipc/ws-handlers.ts';
import { buildMenuTemplate } from './menu.ts';
import { installNavigationGuards } from './navigation-guard.ts';
import { RecentWorkspaces } from './recent-workspaces.ts';
import { CollectionFolder } from './collection-folder.ts';
import { SecretStore } from './secret-store.ts';
import { textFileAt } from './text-file.ts';
import { UploadProxy, type OutgoingRequest } from './upload-proxy.ts';
import { isPermissionAllowed, mainWindowOptions } from './window-options.ts';
import { WsProxy } from './ws-proxy.ts';

// Tests (e2e/electron) run each launch in a fresh profile.
if (process.env.JQL_USER_DATA_DIR) app.setPath('userData', process.env.JQL_USER_DATA_DIR);

const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const isAppUrl = createAppUrlMatcher(devServerUrl);

// Must run before `ready`: app:// behaves like https (secure context, fetch, module workers).
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
]);

if (!app.requestSingleInstanceLock()) app.quit();

let window: BrowserWindow | null = null;

const startServer: StartServerFn = async (options) => {
  const server = await start(options);
  // `localAdminToken` comes with the server's --local-admin support; read it defensively.
  const token = (server as { localAdminToken?: unknown }).localAdminToken;
  return { url: server.url, close: () => server.close(), ...(typeof token === 'string' ? { localAdminToken: token } : {}) };
};

function send<C extends EventChannel>(channel: C, payload: BridgeEventMap[C]): void {
  if (window && !window.isDestroyed()) window.webContents.send(channel, payload);
}

const userData = app.getPath('userData');
const recent = new RecentWorkspaces(textFileAt(join(userData, 'workspaces.json')));
const secrets = new SecretStore(safeStorage, textFileAt(join(userData, 'secrets.json')));
/** Each connection's cookie jar (session authentication), kept across restarts. */
const connectionSession = (connectionId: string) => session.fromPartition(`persist:jql-${connectionId}`);

/** Electron's ClientRequest as the upload proxy sees it; chunked, so a large file is never held twice. */
function electronOutgoing(connectionId: string, url: string): OutgoingRequest {
  const request = net.request({ method: 'PUT', url, session: connectionSession(connectionId), useSessionCookies: true, redirect: 'error' });
  request.chunkedEncoding = true;
  return {
    setHeader: (name, value) => request.setHeader(name, value),
    write: (chunk, callback) => request.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), undefined, callback),
    end: () => void request.end(),
    abort: () => request.abort(),
    uploaded: () => {
      const progress = request.getUploadProgress();
      return progress.started ? progress.current : null;
    },
    on: (event: 'response' | 'error', listener: (arg: never) => void) => request.on(event as 'error', listener as (error: Error) => void),
  };
}

const uploads = new UploadProxy({
  open: ({ connectionId, url }) => electronOutgoing(connectionId, url),
  onProgress: (progress) => send('http:upload-progress', progress),
});

const sockets = new WsProxy({
  create: (url, headers) => new WebSocket(url, { headers, maxPayload: 64 * 1024 * 1024 }),
  cookieHeader: async (connectionId, url) => {
    const cookies = await connectionSession(connectionId).cookies.get({ url });
    return cookies.length > 0 ? cookies.map((c) => `${c.name}=${c.value}`).join('; ') : null;
  },
  onMessage: (message) => send('ws:message', message),
  onClosed: (closed) => send('ws:closed', closed),
});

let history: SqliteHistoryStore | null = null;
let documents: SqliteDocumentStore | null = null;

const collectionFolder = new CollectionFolder(textFileAt(join(userData, 'collection-folder.json')), userData);

const embedded = new EmbeddedServer({
  start: startServer,
  userDataDir: userData,
  collections: () => collectionFolder.current,
  onStatus: (status: EmbeddedServerStatus) => send('embedded:changed', status),
});

/** "Reproduce locally": copies go under the user's data folder, each served like the embedded server. */
const clones = new CloneJobs({
  root: join(userData, 'clones'),
  serve: (copy) => startServer({ workspace: copy.workspace, dataDir: copy.dataDir, host: '127.0.0.1', port: 0, localAdmin: true }),
});

async function openWorkspace(path: string | null): Promise<void> {
  const status = await embedded.open(path);
  if (status.state === 'failed' && path) {
    await recent.forget(path);
    dialog.showErrorBox('The workspace could not be opened', `${path}\n\n${status.message}`);
    await embedded.open(null);
  } else {
    await recent.open(path);
  }
  refreshMenu();
  send('workspace:recent-changed', recent.recent);
}

/** The Saved view reads collections through the embedded server, so a new folder means a restart. */
async function openCollectionFolderDialog(): Promise<void> {
  const options: Electron.OpenDialogOptions = { title: 'Open Collection Folder', properties: ['openDirectory', 'createDirectory'] };
  const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  const path = result.filePaths[0];
  if (result.canceled || !path) return;
  await collectionFolder.choose(path);
  await embedded.restart();
}

async function openWorkspaceDialog(): Promise<void> {
  const options: Electron.OpenDialogOptions = {
    title: 'Open Workspace',
    properties: ['openFile'],
    filters: [{ name: 'JQL workspace', extensions: ['json'] }],
  };
  const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  const path = result.filePaths[0];
  if (!result.canceled && path) await openWorkspace(path);
}

function refreshMenu(): void {
  const template = buildMenuTemplate(
    { isMac: process.platform === 'darwin', isDev: !app.isPackaged, recent: recent.recent, current: recent.current, appName: app.name },
    {
      openWorkspace: () => void openWorkspaceDialog(),
      openRecent: (path) => void openWorkspace(path),
      openDemo: () => void openWorkspace(null),
      clearRecent: () => void recent.clear().then(refreshMenu),
      openCollectionFolder: () => void openCollectionFolderDialog(),
    },
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function appInfo(): AppInfo {
  return { appVersion: app.getVersion(), platform: process.platform, embedded: embedded.status, recentWorkspaces: recent.recent };
}

function createWindow(): void {
  window = new BrowserWindow(mainWindowOptions(join(import.meta.dirname, '../preload/index.cjs')));
  window.once('ready-to-show', () => window?.show());
  window.on('closed', () => {
    window = null;
    sockets.closeAll();
  });
  // A reload or a crash leaves no page to read the sockets it opened.
  window.webContents.on('did-start-loading', () => sockets.closeAll());
  window.webContents.on('render-process-gone', () => sockets.closeAll());
  void window.loadURL(devServerUrl ?? APP_ENTRY_URL);
}

app.on('web-contents-created', (_event, contents) => {
  installNavigationGuards(contents, { isAppUrl, openExternal: (url) => void shell.openExternal(url) });
});

app.on('second-instance', () => {
  if (window) {
    if (window.isMinimized()) window.restore();
    window.focus();
  }
});

void app.whenReady().then(async () => {
  const csp = contentSecurityPolicy({ devServerOrigin: devServerUrl ? new URL(devServerUrl).origin : undefined });
  protocol.handle(APP_SCHEME, createAppProtocolHandler({ rootDir: join(import.meta.dirname, '../renderer'), csp }));
  if (devServerUrl) {
    // The dev server's pages get the same policy as a header.
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
    });
  }
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(isPermissionAllowed(permission)));
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => isPermissionAllowed(permission));

  history = SqliteHistoryStore.open(join(userData, 'history.sqlite'));
  documents = SqliteDocumentStore.open(join(userData, 'documents.sqlite'));

  registerIpcHandlers(ipcMain, {
    isTrusted: (event) => isTrustedSender(event, isAppUrl),
    validators,
    handlers: {
      ...appHandlers({ getInfo: appInfo }),
      ...httpHandlers({
        // One cookie jar per connection, kept across restarts (session authentication).
        fetchFor: (connectionId) => {
          const ses = connectionSession(connectionId);
          return (url, init) => ses.fetch(url, init);
        },
      }),
      ...secretHandlers(secrets),
      ...fileHandlers({
        chooseSavePath: async (suggestedName) => {
          const options: Electron.SaveDialogOptions = { defaultPath: join(app.getPath('downloads'), suggestedName) };
          const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
          return result.canceled || !result.filePath ? null : result.filePath;
        },
        writeFile: (path, data) => writeFile(path, data),
        openExternal: (url) => shell.openExternal(url),
      }),
      ...workspaceHandlers({ openWorkspaceDialog, openWorkspace: (path) => openWorkspace(path), recent: () => recent.recent }),
      ...uploadHandlers(uploads),
      ...wsHandlers(sockets),
      ...historyHandlers(history),
      ...documentHandlers(documents),
      ...cloneHandlers(clones),
    },
  });

  await recent.load();
  await collectionFolder.load();
  refreshMenu();
  createWindow();
  await openWorkspace(recent.current);

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// Stop the server (close the database cleanly) before the process exits.
let quitting = false;
app.on('before-quit', (event) => {
  if (quitting) return;
  event.preventDefault();
  quitting = true;
  sockets.closeAll();
  history?.close();
  documents?.close();
  void Promise.all([embedded.stop(), clones.close()]).finally(() => app.quit());
});
