import { describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../shared/bridge.ts';
import { createBridge, type IpcRendererLike } from './bridge.ts';

function fakeIpc() {
  const listeners = new Map<string, Set<(e: unknown, p: unknown) => void>>();
  const ipc: IpcRendererLike & { invoke: ReturnType<typeof vi.fn> } = {
    invoke: vi.fn(async () => 'ok'),
    on: (c, l) => listeners.set(c, (listeners.get(c) ?? new Set()).add(l)),
    removeListener: (c, l) => listeners.get(c)?.delete(l),
  };
  const emit = (channel: string, payload: unknown) => listeners.get(channel)?.forEach((l) => l({ sender: 'secret' }, payload));
  return { ipc, emit, listeners };
}

describe('createBridge', () => {
  it('maps each method to its channel with its arguments', async () => {
    const { ipc } = fakeIpc();
    const bridge = createBridge(ipc);
    await bridge.getAppInfo();
    await bridge.setSecret('token:a', 'v');
    await bridge.request({ connectionId: 'c', url: 'http://h', method: 'GET', headers: {}, credentials: 'connection' });
    await bridge.registerConnection({ id: 'c', baseUrl: 'http://h', authClass: 'jwt' });
    await bridge.forgetConnection('c');
    await bridge.saveFile({ suggestedName: 'x.json', data: 'd' });
    await bridge.openWorkspace();
    await bridge.openRecentWorkspace('/w.json');
    await bridge.openExternal('https://e');
    await bridge.hasSecret('k');
    await bridge.deleteSecret('k');
    await bridge.upload({ uploadId: 'u1', connectionId: 'c', url: 'http://h/jql', headers: {}, parts: [{ kind: 'field', name: 'query', value: '{}' }] });
    await bridge.cancelUpload('u1');
    await bridge.wsOpen({ connectionId: 'c', url: 'ws://h/jql-streams' });
    await bridge.wsSend('s1', '{"type":"ping"}');
    await bridge.wsClose('s1', 1000, 'bye');
    await bridge.wsAck('s1', 42);
    await bridge.historyAdd({ connectionId: 'c', connectionName: 'C', document: '{}', status: 200, timeMs: 1, size: 2, summary: 's', at: 1 });
    await bridge.historyList({ text: 'x' });
    await bridge.historyGet('h1');
    await bridge.historyDelete('h1');
    await bridge.historyClear();
    await bridge.historyCount();
    await bridge.documentsGet('tabs');
    await bridge.documentsWrite([{ key: 'tabs', value: '{}' }]);
    await bridge.cloneStart({ url: 'http://h', token: null, query: '{}', depth: 2, withFiles: false, redact: [], name: 'Copy' });
    await bridge.cloneStatus('j1');
    await bridge.cloneCancel('j1');
    const channels = ipc.invoke.mock.calls.map((c) => c[0]);
    expect(new Set(channels)).toEqual(new Set(INVOKE_CHANNELS));
    expect(ipc.invoke).toHaveBeenCalledWith('secrets:set', 'token:a', 'v');
    expect(ipc.invoke).toHaveBeenCalledWith('ws:close', 's1', 1000, 'bye');
    expect(ipc.invoke).toHaveBeenCalledWith('http:upload-cancel', 'u1');
  });

  it('has no way to read a secret back (issue 21.3)', () => {
    const bridge = createBridge(fakeIpc().ipc) as unknown as Record<string, unknown>;
    expect(bridge.getSecret).toBeUndefined();
    expect(Object.keys(bridge).filter((k) => /secret/i.test(k)).sort()).toEqual(['deleteSecret', 'hasSecret', 'setSecret']);
    expect(INVOKE_CHANNELS).not.toContain('secrets:get');
  });

  it('exposes named methods only, never a generic send or ipcRenderer', () => {
    const bridge = createBridge(fakeIpc().ipc) as unknown as Record<string, unknown>;
    expect(Object.keys(bridge).sort()).toEqual(
      [
        'deleteSecret',
        'getAppInfo',
        'hasSecret',
        'registerConnection',
        'forgetConnection',
        'wsAck',
        'onEmbeddedChanged',
        'onRecentWorkspacesChanged',
        'openExternal',
        'openRecentWorkspace',
        'openWorkspace',
        'request',
        'saveFile',
        'setSecret',
        'upload',
        'cancelUpload',
        'onUploadProgress',
        'wsOpen',
        'wsSend',
        'wsClose',
        'onWsMessage',
        'onWsClosed',
        'historyAdd',
        'historyList',
        'historyGet',
        'historyDelete',
        'historyClear',
        'historyCount',
        'documentsGet',
        'documentsWrite',
        'cloneStart',
        'cloneStatus',
        'cloneCancel',
      ].sort(),
    );
    expect(Object.values(bridge).every((v) => typeof v === 'function')).toBe(true);
  });

  it('delivers events without the Electron event object, and unsubscribes', () => {
    const { ipc, emit, listeners } = fakeIpc();
    const bridge = createBridge(ipc);
    const seen: unknown[] = [];
    const off = bridge.onEmbeddedChanged((status) => seen.push(status));
    emit('embedded:changed', { state: 'starting', workspace: null });
    expect(seen).toEqual([{ state: 'starting', workspace: null }]);
    off();
    expect(listeners.get('embedded:changed')?.size).toBe(0);
  });

  it('delivers upload progress and socket events on their own channels', () => {
    const { ipc, emit } = fakeIpc();
    const bridge = createBridge(ipc);
    const seen: unknown[] = [];
    bridge.onUploadProgress((p) => seen.push(['progress', p]));
    bridge.onWsMessage((m) => seen.push(['message', m]));
    bridge.onWsClosed((c) => seen.push(['closed', c]));
    emit('http:upload-progress', { uploadId: 'u1', loaded: 5, total: 10 });
    emit('ws:message', { socketId: 's1', data: '{}' });
    emit('ws:closed', { socketId: 's1', code: 1006, reason: '' });
    expect(seen).toEqual([
      ['progress', { uploadId: 'u1', loaded: 5, total: 10 }],
      ['message', { socketId: 's1', data: '{}' }],
      ['closed', { socketId: 's1', code: 1006, reason: '' }],
    ]);
  });
});
