import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { EmbeddedServerStatus } from '../shared/bridge.ts';
import type { Workspace } from '../server/index.ts';
import { dataDirFor, EmbeddedServer, type EmbeddedWatchOptions, type StartServerFn } from './embedded-server.ts';

function setup(start: StartServerFn) {
  const statuses: EmbeddedServerStatus[] = [];
  const server = new EmbeddedServer({ start, userDataDir: '/u', onStatus: (s) => statuses.push(s) });
  return { server, statuses };
}

describe('EmbeddedServer', () => {
  it('starts the demo on 127.0.0.1 with a free port, as local admin, without the console page, and reports it', async () => {
    const close = vi.fn(async () => {});
    const start = vi.fn<StartServerFn>(async () => ({ url: 'http://127.0.0.1:4567', close, localAdminToken: 'tok' }));
    const { server, statuses } = setup(start);
    const status = await server.open(null);
    expect(start).toHaveBeenCalledWith({ dataDir: join('/u', 'servers', 'demo'), host: '127.0.0.1', port: 0, localAdmin: true, serveConsole: false });
    expect(statuses).toEqual([
      { state: 'starting', workspace: null },
      { state: 'running', url: 'http://127.0.0.1:4567', workspace: null, localAdmin: true },
    ]);
    expect(status).toEqual(statuses[1]);
  });

  it('hands the local admin credential to main only, never in a status the window gets', async () => {
    const start: StartServerFn = async () => ({ url: 'http://127.0.0.1:4567', close: async () => {}, localAdminToken: 'local-admin-secret' });
    const statuses: EmbeddedServerStatus[] = [];
    const servers: Array<[string | null, string | null]> = [];
    const server = new EmbeddedServer({ start, userDataDir: '/u', onStatus: (s) => statuses.push(s), onServer: (url, token) => servers.push([url, token]) });
    await server.open(null);
    await server.stop();
    expect(servers).toEqual([
      ['http://127.0.0.1:4567', 'local-admin-secret'],
      [null, null],
    ]);
    expect(JSON.stringify(statuses)).not.toContain('local-admin-secret');
  });

  it('stops the old server before starting the next, one at a time', async () => {
    const events: string[] = [];
    let n = 0;
    const start: StartServerFn = async (o) => {
      const id = ++n;
      events.push(`start ${id} ${o.workspace ?? 'demo'}`);
      await new Promise((r) => setTimeout(r, 5));
      return { url: `http://127.0.0.1:${id}`, close: async () => void events.push(`close ${id}`) };
    };
    const { server } = setup(start);
    const a = server.open('/ws/a.json');
    const b = server.open('/ws/b.json');
    await Promise.all([a, b]);
    await server.stop();
    expect(events).toEqual(['start 1 /ws/a.json', 'close 1', 'start 2 /ws/b.json', 'close 2']);
  });

  it('reports a failure with the server message and keeps working after it', async () => {
    let fail = true;
    const start: StartServerFn = async () => {
      if (fail) throw new Error('tickets.Ticket.title: type changed from string to integer');
      return { url: 'http://127.0.0.1:1', close: async () => {} };
    };
    const { server } = setup(start);
    expect(await server.open('/ws/bad.json')).toEqual({ state: 'failed', workspace: '/ws/bad.json', message: 'tickets.Ticket.title: type changed from string to integer' });
    fail = false;
    expect((await server.open(null)).state).toBe('running');
  });

  it('gives each workspace its own data directory', () => {
    expect(dataDirFor('/u', '/a.json')).not.toBe(dataDirFor('/u', '/b.json'));
    expect(dataDirFor('/u', '/a.json')).toBe(dataDirFor('/u', '/a.json'));
    expect(dataDirFor('/u', null)).toBe(join('/u', 'servers', 'demo'));
  });

  it('serves the collection folder read at each start, so a newly chosen one is served after restart()', async () => {
    const start = vi.fn<StartServerFn>(async () => ({ url: 'http://127.0.0.1:4567', close: async () => {} }));
    let folder = '/u/collections';
    const server = new EmbeddedServer({ start, userDataDir: '/u', onStatus: () => {}, collections: () => folder });
    await server.open('/ws/a.json');
    folder = '/repo/qa-collections';
    await server.restart();
    expect(start.mock.calls.map(([o]) => [o.workspace, o.collections])).toEqual([
      ['/ws/a.json', '/u/collections'],
      ['/ws/a.json', '/repo/qa-collections'],
    ]);
  });
});

describe('EmbeddedServer failure messages', () => {
  it('reports a failure without bidi controls the workspace file may hold', async () => {
    const start: StartServerFn = async () => {
      throw new Error('app "inv\u202Eoice" has no models');
    };
    const { server } = setup(start);
    expect(await server.open('/ws/bad.json')).toMatchObject({ state: 'failed', message: 'app "invoice" has no models' });
  });

  it('applies a save in place when the running server can, so nothing starts again and the URL stays', async () => {
    const ws = (name: string) => ({ name }) as unknown as Workspace;
    const applied: Workspace[] = [];
    const start = vi.fn<StartServerFn>(async () => ({ url: 'http://127.0.0.1:4100', close: async () => {}, workspace: ws('opened'), apply: async (next) => (applied.push(next), 'applied' as const) }));
    const watches: EmbeddedWatchOptions[] = [];
    const server = new EmbeddedServer({ start, userDataDir: '/u', onStatus: () => {}, watch: (o) => (watches.push(o), { close: () => {} }) });
    await server.open('/ws/a.json');
    await watches[0]?.apply(ws('saved'));
    expect(applied).toEqual([ws('saved')]);
    expect(start).toHaveBeenCalledTimes(1);
    expect(server.status).toMatchObject({ state: 'running', url: 'http://127.0.0.1:4100' });
  });

  it('watches an opened workspace: a save starts the server again on the same port with the saved workspace', async () => {
    const ws = (name: string) => ({ name }) as unknown as Workspace;
    let n = 0;
    const start = vi.fn<StartServerFn>(async (o) => ({ url: `http://127.0.0.1:${o.port || 4000 + ++n}`, close: async () => {}, workspace: o.resolvedWorkspace ?? ws('opened') }));
    const watches: EmbeddedWatchOptions[] = [];
    const closed = vi.fn();
    const server = new EmbeddedServer({ start, userDataDir: '/u', onStatus: () => {}, watch: (o) => (watches.push(o), { close: closed }) });
    await server.open('/ws/a.json');
    expect(watches).toHaveLength(1);
    expect(watches[0]).toMatchObject({ file: '/ws/a.json', dataDir: dataDirFor('/u', '/ws/a.json'), current: ws('opened') });
    // The watcher's report is what /healthz of every start shows.
    expect(start.mock.calls[0]?.[0].watchStatus).toBe(watches[0]?.status);

    await watches[0]?.apply(ws('saved'));
    expect(start).toHaveBeenLastCalledWith(expect.objectContaining({ workspace: '/ws/a.json', port: 4001, resolvedWorkspace: ws('saved'), watchStatus: watches[0]?.status }));
    expect(server.status).toMatchObject({ state: 'running', url: 'http://127.0.0.1:4001' });

    // Another workspace: the old watcher stops, and a late save of the old one starts nothing.
    await server.open('/ws/b.json');
    expect(closed).toHaveBeenCalledTimes(1);
    const calls = start.mock.calls.length;
    await watches[0]?.apply(ws('late'));
    expect(start.mock.calls.length).toBe(calls);
    expect(server.status).toMatchObject({ state: 'running', workspace: '/ws/b.json' });
    // The demo is the app's own: not watched.
    await server.open(null);
    expect(watches).toHaveLength(2);
  });
});
