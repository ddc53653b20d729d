import { describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../../shared/bridge.ts';
import { createAppUrlMatcher } from '../app-url.ts';
import { registerIpcHandlers, type Handlers, type IpcMainLike } from './register.ts';
import { isTrustedSender, type SenderInfo } from './sender.ts';
import { InvalidArgumentsError, validators } from './validators.ts';

type Listener = (event: SenderInfo, ...args: unknown[]) => unknown;

function fakeIpc() {
  const handlers = new Map<string, Listener>();
  const ipc: IpcMainLike = { handle: (c, l) => void handlers.set(c, l), removeHandler: (c) => void handlers.delete(c) };
  return { ipc, handlers };
}

const appFrame: SenderInfo = { senderFrame: { url: 'app://console/index.html', parent: null } };

function allHandlers(): Handlers {
  return {
    'app:get-info': vi.fn(() => ({ appVersion: '1', platform: 'linux', embedded: { state: 'starting' as const, workspace: null }, recentWorkspaces: [] })),
    'http:request': vi.fn(async () => ({ status: 200, statusText: 'OK', headers: {}, body: new Uint8Array(), timeMs: 1 })),
    'connections:register': vi.fn(async () => {}),
    'connections:forget': vi.fn(async () => {}),
    'secrets:set': vi.fn(async () => {}),
    'secrets:has': vi.fn(async () => true),
    'secrets:delete': vi.fn(async () => {}),
    'file:save': vi.fn(async () => ({ saved: false as const })),
    'shell:open-external': vi.fn(async () => true),
    'workspace:open': vi.fn(async () => {}),
    'workspace:open-recent': vi.fn(async () => {}),
    'http:upload': vi.fn(async () => ({ status: 200, statusText: 'OK', headers: {}, body: new Uint8Array(), timeMs: 1 })),
    'http:upload-cancel': vi.fn(),
    'ws:open': vi.fn(async () => ({ socketId: 's1' })),
    'ws:send': vi.fn(),
    'ws:close': vi.fn(),
    'ws:ack': vi.fn(),
    'history:add': vi.fn((run) => ({ id: 'h1', ...run })),
    'history:list': vi.fn(() => []),
    'history:get': vi.fn(() => null),
    'history:delete': vi.fn(),
    'history:clear': vi.fn(),
    'history:count': vi.fn(() => 0),
    'documents:get': vi.fn(() => null),
    'clone:start': vi.fn(() => ({ id: 'j1' })),
    'clone:status': vi.fn(() => null),
    'clone:cancel': vi.fn(() => null),
    'documents:write': vi.fn(),
  };
}

function setup() {
  const { ipc, handlers } = fakeIpc();
  const impl = allHandlers();
  const unregister = registerIpcHandlers(ipc, { isTrusted: (e) => isTrustedSender(e, createAppUrlMatcher()), validators, handlers: impl });
  const call = (channel: string, event: SenderInfo, ...args: unknown[]) => Promise.resolve(handlers.get(channel)!(event, ...args));
  return { handlers, impl, call, unregister };
}

describe('registerIpcHandlers', () => {
  it('registers exactly the channels of the shared map, and removes them', () => {
    const { handlers, unregister } = setup();
    expect([...handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
    unregister();
    expect(handlers.size).toBe(0);
  });

  it('answers the console window', async () => {
    const { call, impl } = setup();
    await expect(call('secrets:has', appFrame, 'token:conn-1')).resolves.toBe(true);
    expect(impl['secrets:has']).toHaveBeenCalledWith('token:conn-1');
  });

  it('has no channel that reads a secret back (issue 21.3)', () => {
    const { handlers } = setup();
    expect(handlers.has('secrets:get')).toBe(false);
    expect([...handlers.keys()].filter((c) => c.startsWith('secrets:')).sort()).toEqual(['secrets:delete', 'secrets:has', 'secrets:set']);
  });

  it('checks a connection the page registers', async () => {
    const { call, impl } = setup();
    await call('connections:register', appFrame, { id: 'conn-1', baseUrl: 'https://jql.example/api', authClass: 'jwt', answerLimit: 8 * 1024 * 1024 });
    expect(impl['connections:register']).toHaveBeenCalledWith({ id: 'conn-1', baseUrl: 'https://jql.example/api', authClass: 'jwt', answerLimit: 8 * 1024 * 1024 });
    for (const bad of [
      { id: 'conn-1', baseUrl: 'file:///etc', authClass: 'jwt' },
      { id: 'conn-1', baseUrl: 'https://u:p@jql.example', authClass: 'jwt' },
      { id: '../x', baseUrl: 'https://jql.example', authClass: 'jwt' },
      { id: 'conn-1', baseUrl: 'https://jql.example', authClass: 'basic' },
      { id: 'conn-1', baseUrl: 'https://jql.example', authClass: 'jwt', answerLimit: 10 * 1024 ** 3 },
    ]) {
      await expect(call('connections:register', appFrame, bad), JSON.stringify(bad)).rejects.toThrow();
    }
    expect(impl['connections:register']).toHaveBeenCalledTimes(1);
  });

  it('refuses other senders: other pages, subframes, no frame', async () => {
    const { call, impl } = setup();
    const others: SenderInfo[] = [
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      { senderFrame: { url: 'app://console/index.html', parent: {} } },
      { senderFrame: { url: 'file:///tmp/x.html', parent: null } },
      { senderFrame: null },
    ];
    for (const event of others) await expect(call('secrets:has', event, 'token:a')).rejects.toThrow(/not the console window/);
    expect(impl['secrets:has']).not.toHaveBeenCalled();
  });

  it('refuses ill-typed arguments before the handler runs', async () => {
    const { call, impl } = setup();
    await expect(call('secrets:set', appFrame, 'token:a', { not: 'string' })).rejects.toThrow(InvalidArgumentsError);
    await expect(call('app:get-info', appFrame, 'extra')).rejects.toThrow(InvalidArgumentsError);
    await expect(call('http:request', appFrame, { url: 'file:///etc/passwd' })).rejects.toThrow();
    await expect(call('ws:ack', appFrame, 's1', -5)).rejects.toThrow();
    await expect(call('file:save', appFrame, { suggestedName: 'x', data: 42 })).rejects.toThrow(InvalidArgumentsError);
    expect(impl['secrets:set']).not.toHaveBeenCalled();
    expect(impl['http:request']).not.toHaveBeenCalled();
  });

  it('checks the arguments of the upload, socket and history channels', async () => {
    const { call, impl } = setup();
    const upload = { uploadId: 'u1', connectionId: 'c1', url: 'http://127.0.0.1:1/jql', headers: { 'Content-Type': 'text/plain', Authorization: 'Bearer t' }, parts: [{ kind: 'field', name: 'query', value: '{}' }] };
    await call('http:upload', appFrame, upload);
    // The multipart Content-Type (with its boundary) is main's to write.
    expect(impl['http:upload']).toHaveBeenCalledWith(expect.objectContaining({ headers: { Authorization: 'Bearer t' } }));
    await expect(call('http:upload', appFrame, { ...upload, url: 'file:///etc/passwd' })).rejects.toThrow();
    await expect(call('http:upload', appFrame, { ...upload, parts: [{ kind: 'file', name: 'f', fileName: 'x', data: 'not bytes' }] })).rejects.toThrow(/bytes/);
    await expect(call('http:upload-cancel', appFrame, 42)).rejects.toThrow(InvalidArgumentsError);

    await call('ws:open', appFrame, { connectionId: 'c1', url: 'wss://jql.example/jql-streams' });
    await expect(call('ws:open', appFrame, { connectionId: 'c1', url: 'https://jql.example/' })).rejects.toThrow(/ws and wss/);
    await expect(call('ws:send', appFrame, 's1', { type: 'ping' })).rejects.toThrow();
    await call('ws:close', appFrame, 's1', 1006, 'bye\r\nX');
    // 1006 may not be sent by a client; the reason keeps printable ASCII only.
    expect(impl['ws:close']).toHaveBeenCalledWith('s1', 1000, 'byeX');

    await expect(call('history:add', appFrame, { nope: true })).rejects.toThrow();
    await expect(call('history:list', appFrame, { outcome: 'maybe' })).rejects.toThrow();
    expect(impl['history:add']).not.toHaveBeenCalled();
  });
});
