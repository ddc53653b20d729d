/**
 * Main's wiring, with the electron module and the server stubbed at their boundary: on ready it
 * serves app://, registers every checked channel, opens a locked-down window, starts the embedded
 * server as local admin and tells the window; on quit it stops the server first.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../shared/bridge.ts';
import type * as ServerModule from '../server/index.ts';

const h = vi.hoisted(() => {
  type Fn = (...args: unknown[]) => unknown;
  const appListeners = new Map<string, Fn[]>();
  let resolveReady: () => void = () => {};
  const ready = new Promise<void>((r) => (resolveReady = r));
  const windows: Array<{ options: Record<string, unknown>; loaded: string[]; sent: Array<[string, unknown]> }> = [];
  return { appListeners, ready, resolveReady: () => resolveReady(), windows, userData: '', ipcChannels: [] as string[], ipcListeners: new Map<string, Fn>(), protocolHandlers: [] as string[], privileged: [] as unknown[], serverClose: vi.fn(async () => {}), quit: vi.fn(), startCalls: [] as unknown[] };
});

vi.mock('electron', () => {
  type Fn = (...args: unknown[]) => unknown;
  class BrowserWindow {
    static getAllWindows = () => h.windows;
    webContents: { send: Fn; on: Fn };
    private record: { options: Record<string, unknown>; loaded: string[]; sent: Array<[string, unknown]> };
    constructor(options: Record<string, unknown>) {
      this.record = { options, loaded: [], sent: [] };
      h.windows.push(this.record);
      this.webContents = { send: (channel: unknown, payload: unknown) => this.record.sent.push([channel as string, payload]), on: () => {} };
    }
    loadURL(url: string) {
      this.record.loaded.push(url);
      return Promise.resolve();
    }
    once() {}
    on() {}
    isDestroyed() {
      return false;
    }
  }
  const fakeSession = {
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
    webRequest: { onHeadersReceived: vi.fn() },
    resolveHost: vi.fn(async () => ({ endpoints: [] })),
    cookies: { get: vi.fn(async () => []) },
    clearStorageData: vi.fn(async () => {}),
  };
  return {
    app: {
      isPackaged: true,
      name: 'JQL Console',
      getPath: () => h.userData,
      getVersion: () => '0.1.0',
      requestSingleInstanceLock: () => true,
      whenReady: () => h.ready,
      quit: h.quit,
      on: (name: string, listener: Fn) => h.appListeners.set(name, [...(h.appListeners.get(name) ?? []), listener]),
    },
    BrowserWindow,
    dialog: { showOpenDialog: vi.fn(), showSaveDialog: vi.fn(), showErrorBox: vi.fn(), showMessageBox: vi.fn(async () => ({ response: 1 })) },
    ipcMain: {
      handle: (channel: string, listener: Fn) => {
        h.ipcChannels.push(channel);
        h.ipcListeners.set(channel, listener);
      },
      removeHandler: vi.fn(),
    },
    net: { request: vi.fn() },
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: vi.fn() },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => h.privileged.push(...schemes),
      handle: (scheme: string) => h.protocolHandlers.push(scheme),
    },
    safeStorage: { isEncryptionAvailable: () => false, encryptString: vi.fn(), decryptString: vi.fn() },
    session: { defaultSession: fakeSession, fromPartition: () => fakeSession },
    shell: { openExternal: vi.fn() },
  };
});

// Calls are recorded by hand: vi.fn call records may be cleared between tests.
vi.mock('../server/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof ServerModule>();
  return {
    openDatabase: real.openDatabase,
    CloneJobs: real.CloneJobs,
    WatchStatus: real.WatchStatus,
    watchWorkspace: real.watchWorkspace,
    restartReason: real.restartReason,
    workspaceCodeFiles: () => [],
    start: async (options: unknown) => {
      h.startCalls.push(options);
      return { url: 'http://127.0.0.1:43210', port: 43210, state: { ws: null }, close: () => h.serverClose(), localAdminToken: 'local-admin-token' };
    },
  };
});

beforeAll(async () => {
  h.userData = mkdtempSync(join(tmpdir(), 'jql-main-test-'));
  await import('./index.ts');
  h.resolveReady();
  // Let the ready handler run to completion (it awaits the server start).
  await vi.waitFor(() => expect(h.windows[0]?.sent.length).toBeGreaterThan(1));
});

afterAll(() => {
  vi.resetModules();
  rmSync(h.userData, { recursive: true, force: true });
});

describe('Electron main', () => {
  it('registers app:// as a secure standard scheme before ready, and serves it', () => {
    expect(h.privileged).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
    expect(h.protocolHandlers).toEqual(['app']);
  });

  it('registers every channel of the bridge', () => {
    expect([...h.ipcChannels].sort()).toEqual([...INVOKE_CHANNELS].sort());
  });

  it('keeps the run history in SQLite under the user data folder', async () => {
    const console = { senderFrame: { url: 'app://console/index.html', parent: null } };
    const call = (channel: string, ...args: unknown[]) => Promise.resolve(h.ipcListeners.get(channel)!(console, ...args));
    const run = { connectionId: 'embedded', connectionName: 'Embedded server', document: '{}', status: 200, timeMs: 3, size: 10, summary: 'retrieve · 1 record', at: 1 };
    await expect(call('history:add', run)).resolves.toMatchObject(run);
    await expect(call('history:count')).resolves.toBe(1);
    await expect(call('history:list', { text: 'retrieve' })).resolves.toHaveLength(1);
    expect(existsSync(join(h.userData, 'history.sqlite'))).toBe(true);
  });

  it('keeps the tabs and saved collections in SQLite under the user data folder', async () => {
    const console = { senderFrame: { url: 'app://console/index.html', parent: null } };
    const call = (channel: string, ...args: unknown[]) => Promise.resolve(h.ipcListeners.get(channel)!(console, ...args));
    await call('documents:write', [{ key: 'tab:t1', value: '{"text":"x"}' }]);
    await expect(call('documents:get', 'tab:t1')).resolves.toBe('{"text":"x"}');
    await expect(call('documents:get', '../etc/passwd')).rejects.toThrow('document key');
    expect(existsSync(join(h.userData, 'documents.sqlite'))).toBe(true);
  });

  it('opens one locked-down window on the app URL', () => {
    expect(h.windows).toHaveLength(1);
    const prefs = h.windows[0]!.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(String(prefs.preload)).toMatch(/preload[\\/]index\.cjs$/);
    expect(h.windows[0]!.loaded).toEqual(['app://console/index.html']);
  });

  it('starts the embedded server on 127.0.0.1, a free port, as local admin, without a console page, and tells the window', () => {
    expect(h.startCalls).toEqual([expect.objectContaining({ host: '127.0.0.1', port: 0, localAdmin: true, serveConsole: false })]);
    expect(h.startCalls[0]).not.toHaveProperty('workspace');
    const sent = h.windows[0]!.sent;
    expect(sent).toContainEqual(['embedded:changed', { state: 'running', url: 'http://127.0.0.1:43210', workspace: null, localAdmin: true }]);
  });

  it("never gives the page the local admin's credential: not in app:get-info, not in an event", async () => {
    const console = { senderFrame: { url: 'app://console/index.html', parent: null } };
    const call = (channel: string, ...args: unknown[]) => Promise.resolve(h.ipcListeners.get(channel)!(console, ...args));
    const info = await call('app:get-info');
    expect(JSON.stringify(info)).not.toContain('local-admin-token');
    expect(JSON.stringify(h.windows[0]!.sent)).not.toContain('local-admin-token');
    await expect(call('secrets:has', 'token:embedded')).resolves.toBe(false);
    expect(h.ipcListeners.has('secrets:get')).toBe(false);
  });

  it('guards every web contents against navigation and new windows', () => {
    const created = h.appListeners.get('web-contents-created')![0]!;
    const on = vi.fn();
    const setWindowOpenHandler = vi.fn();
    created({}, { on, setWindowOpenHandler });
    expect(on.mock.calls.map((c) => c[0])).toEqual(expect.arrayContaining(['will-navigate', 'will-redirect', 'will-attach-webview']));
    expect(setWindowOpenHandler).toHaveBeenCalled();
  });

  it('stops the server before quitting', async () => {
    const beforeQuit = h.appListeners.get('before-quit')![0]!;
    const event = { preventDefault: vi.fn() };
    beforeQuit(event);
    expect(event.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(h.quit).toHaveBeenCalled());
    expect(h.serverClose).toHaveBeenCalled();
  });
});
