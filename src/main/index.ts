/**
 * Electron main: starts the embedded JQL server, opens the console window, and wires the checked
 * IPC channels. Kept thin on purpose; each decision lives in a small module beside this one that is
 * unit-tested with the electron module stubbed.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, safeStorage, session, shell } from 'electron';
import WebSocket from 'ws';
import type { AppInfo, BridgeEventMap, EmbeddedServerStatus, EventChannel } from '../shared/bridge.ts';
import { CloneJobs, restartReason, start, watchWorkspace, workspaceCodeFiles } from '../server/index.ts';
import { createAppProtocolHandler } from './app-protocol.ts';
import { APP_ENTRY_URL, APP_SCHEME, createAppUrlMatcher } from './app-url.ts';
import { devServerUrl as devServerUrlFor, IS_DEV_BUILD } from './build-flavor.ts';
import { ConnectionRegistry } from './connections/connection-registry.ts';
import { CredentialVault, tokenKey } from './connections/credential-vault.ts';
import { ConnectionGateway } from './connections/gateway.ts';
import { ReachPolicy } from './connections/reach-policy.ts';
import { contentSecurityPolicy } from './csp.ts';
import { clearCookies, cookieHeader, electronOutgoing, resolveHost } from './electron-net.ts';
import { EmbeddedServer, type StartServerFn } from './embedded-server.ts';
import { openExternalChecked, UserGesture } from './external-open.ts';
import { appHandlers } from './ipc/app-handlers.ts';
import { cloneHandlers } from './ipc/clone-handlers.ts';
import { holdLocalCopies } from './connections/local-copies.ts';
import { SqliteHistoryStore } from './history/sqlite-history-store.ts';
import { connectionHandlers } from './ipc/connection-handlers.ts';
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
import { askOpenExternal, askReach, askTrust } from './prompts.ts';
import { RecentWorkspaces } from './recent-workspaces.ts';
import { CollectionFolder } from './collection-folder.ts';
import { SecretStore } from './secret-store.ts';
import { textFileAt } from './text-file.ts';
import { UploadProxy } from './upload-proxy.ts';
import { isPermissionAllowed, mainWindowOptions } from './window-options.ts';
import { WorkspaceTrust } from './workspace-trust.ts';
import { trustGate } from './watch-trust.ts';
import { WsProxy } from './ws-proxy.ts';

// Tests (e2e/electron) run each launch in a fresh profile.
if (process.env.JQL_USER_DATA_DIR) app.setPath('userData', process.env.JQL_USER_DATA_DIR);

const devServerUrl = devServerUrlFor(process.env, IS_DEV_BUILD);
const isAppUrl = createAppUrlMatcher(devServerUrl);

// Must run before `ready`: app:// behaves like https (secure context, fetch, module workers).
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
]);

if (!app.requestSingleInstanceLock()) app.quit();

let window: BrowserWindow | null = null;

const startServer: StartServerFn = async (options) => {
  const server = await start(options);
  // The local admin's credential, in this process: it goes to the vault and nowhere else.
  const token = (server as { localAdminToken?: unknown }).localAdminToken;
  return {
    url: server.url,
    close: () => server.close(),
    workspace: server.state.ws,
    // The same choice as `serve --watch` (server/cli.ts): in place unless a limit read at start changed.
    apply: async (ws) => {
      if (restartReason(server.state.ws, ws) !== null) return 'restart';
      await server.applyWorkspace(ws);
      return 'applied';
    },
    ...(typeof token === 'string' ? { localAdminToken: token } : {}),
  };
};

function send<C extends EventChannel>(channel: C, payload: BridgeEventMap[C]): void {
  if (window && !window.isDestroyed()) window.webContents.send(channel, payload);
}

const userData = app.getPath('userData');
const recent = new RecentWorkspaces(textFileAt(join(userData, 'workspaces.json')));
const secrets = new SecretStore(safeStorage, textFileAt(join(userData, 'secrets.json')));
const parent = () => window;

// Main's registry of connections and their credentials (issue 21.3): the page holds no token.
const vault = new CredentialVault(secrets);
const registry = new ConnectionRegistry({
  file: textFileAt(join(userData, 'connections.json')),
  forgetCredentials: async (id) => {
    await vault.delete(tokenKey(id));
    await clearCookies(id);
  },
});
const reach = new ReachPolicy({ resolve: resolveHost, ask: (origin, addresses) => askReach(parent, origin, addresses), file: textFileAt(join(userData, 'allowed-origins.json')) });
const gateway = new ConnectionGateway({ registry, vault, reach });

const uploads = new UploadProxy({
  gateway,
  open: (options) => electronOutgoing({ ...options, streamed: true }),
  onProgress: (progress) => send('http:upload-progress', progress),
});

const sockets = new WsProxy({
  gateway,
  create: (url, headers, options) => new WebSocket(url, { headers, maxPayload: options.maxPayload, lookup: options.lookup, followRedirects: false }),
  cookieHeader,
  onMessage: (message) => send('ws:message', message),
  onClosed: (closed) => send('ws:closed', closed),
});

const trust = new WorkspaceTrust({ file: textFileAt(join(userData, 'trusted-workspaces.json')), codeFiles: workspaceCodeFiles, ask: (workspace, files) => askTrust(parent, workspace, files) });

/** Real input reaching the window: an external open right after it needs no question (external-open.ts). */
const gesture = new UserGesture();
const openExternal = (url: string) => openExternalChecked(url, { gesture, confirm: (u) => askOpenExternal(parent, u), open: (u) => shell.openExternal(u) });

let history: SqliteHistoryStore | null = null;
let documents: SqliteDocumentStore | null = null;

const collectionFolder = new CollectionFolder(textFileAt(join(userData, 'collection-folder.json')), userData);

const embedded = new EmbeddedServer({
  start: startServer,
  userDataDir: userData,
  collections: () => collectionFolder.current,
  onServer: (url, localAdminToken) => {
    registry.setEmbedded(url);
    vault.setLocalAdmin(localAdminToken);
  },
  onStatus: (status: EmbeddedServerStatus) => send('embedded:changed', status),
  // The opened workspace is watched as `serve --watch` watches it; changed code is asked about again.
  watch: (options) =>
    watchWorkspace({ ...options, allowDestructive: false, mayRun: trustGate(trust, options.file), out: (line) => console.log(line), err: (line) => console.error(line) }),
});

/** "Reproduce locally": copies go under the user's data folder, each served like the embedded server. */
const clones = new CloneJobs({
  root: join(userData, 'clones'),
  serve: (copy) => startServer({ ...copy, host: '127.0.0.1', port: 0, localAdmin: true, serveConsole: false }),
  // The copy's local admin token goes to the vault, like the embedded server's: the page gets its
  // connection id and signs nothing itself.
  onServed: holdLocalCopies({ registry, vault }),
});

async function openWorkspace(path: string | null): Promise<void> {
  if (path && !(await trust.allows(path))) {
    // Not trusted: its code does not run. Whatever runs now keeps running (the demo at start).
    if (embedded.status.state !== 'running') await embedded.open(null);
    return;
  }
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
    { isMac: process.platform === 'darwin', isDev: IS_DEV_BUILD, recent: recent.recent, current: recent.current, appName: app.name },
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
  window = new BrowserWindow(mainWindowOptions(join(import.meta.dirname, '../preload/index.cjs'), IS_DEV_BUILD));
  window.webContents.on('input-event', (_event, input) => gesture.note(input.type));
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
  installNavigationGuards(contents, { isAppUrl, openExternal: (url) => void openExternal(url) });
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
  await registry.load();
  documents = SqliteDocumentStore.open(join(userData, 'documents.sqlite'));

  registerIpcHandlers(ipcMain, {
    isTrusted: (event) => isTrustedSender(event, isAppUrl),
    validators,
    handlers: {
      ...appHandlers({ getInfo: appInfo }),
      ...httpHandlers({ gateway, open: electronOutgoing }),
      ...connectionHandlers(registry),
      ...secretHandlers(vault),
      ...fileHandlers({
        chooseSavePath: async (name, extension) => {
          const options: Electron.SaveDialogOptions = { defaultPath: join(app.getPath('downloads'), name), filters: [{ name: extension.toUpperCase(), extensions: [extension] }] };
          const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
          return result.canceled || !result.filePath ? null : result.filePath;
        },
        writeFile: (path, data) => writeFile(path, data),
        openExternal,
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
