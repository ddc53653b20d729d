// Issue 30.6: storage faults reach the client as what they are, not as a bug. A full disk answers 503
// `storage_full` with Retry-After, a data folder that cannot be written 503 `storage_read_only`; the
// message never holds a path, and nothing an earlier answer acknowledged is lost.
// The full disk is a real one where the test can make it (a 2 MiB tmpfs, when this process may
// mount: root on Linux); elsewhere SQLite's own limit on the database's size (`max_page_count`)
// makes the same SQLITE_FULL. The read-only folder is simulated with `query_only`, SQLite's
// SQLITE_READONLY: root ignores file permissions, and a folder cannot be remounted read-only under a
// database open for writing.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../index.ts';
import { storageFault } from '../errors.ts';
import { startServer, tempDir, writeWorkspace } from '../testing/fixture.ts';

const WORKSPACE = {
  name: 'disk',
  apps: {
    desk: {
      models: {
        Note: { fields: { text: { type: 'text', required: true } }, search: [], permissions: { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'] } },
      },
    },
  },
};
const workspace = writeWorkspace(WORKSPACE);

/** A 2 MiB filesystem of its own, or null where this process may not mount one. */
function smallFilesystem(): { dir: string; remove(): void } | null {
  const dir = join(tempDir('jql-full-'), 'mnt');
  mkdirSync(dir);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2M', 'tmpfs', dir], { stdio: 'ignore' }).status === 0;
  if (!mounted) return null;
  return {
    dir,
    remove: () => {
      spawnSync('umount', [dir], { stdio: 'ignore' });
      rmdirSync(dir);
    },
  };
}

const filesystem = smallFilesystem();
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  filesystem?.remove();
});

async function serve(dataDir: string): Promise<RunningServer> {
  const server = await startServer({ workspace, dataDir });
  servers.push(server);
  return server;
}

async function post(server: RunningServer, body: unknown): Promise<{ status: number; retryAfter: string | null; body: any }> {
  const res = await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
}

describe('storage faults', () => {
  it(`a full disk answers 503 storage_full and loses nothing acknowledged (${filesystem ? 'a 2 MiB tmpfs' : 'SQLite max_page_count'})`, async () => {
    const dataDir = filesystem ? join(filesystem.dir, 'data') : tempDir();
    const server = await serve(dataDir);
    if (!filesystem) {
      // The database may grow by 40 pages (160 KiB) and no more.
      server.state.db.setup((connection) => connection.pragma(`max_page_count = ${(connection.pragma('page_count', { simple: true }) as number) + 40}`));
    }
    const acknowledged: number[] = [];
    let refused: Awaited<ReturnType<typeof post>> | null = null;
    for (let i = 0; i < 400 && !refused; i++) {
      const res = await post(server, { __meta__: { namespace: 'desk.Note', intent: 'create' }, text: `${i} ${'x'.repeat(20_000)}` });
      if (res.status === 200) acknowledged.push(res.body.__payload__.id as number);
      else refused = res;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.retryAfter).toBe('30');
    expect(refused?.body.__errors__[0].code).toBe('storage_full');
    expect(refused?.body.__errors__[0].message).not.toContain(dataDir);
    expect(acknowledged.length).toBeGreaterThan(0);
    // Every acknowledged write is there, and only those; reads go on.
    const all = await post(server, { __meta__: { namespace: 'desk.Note', intent: 'retrieve', limit: 1000 } });
    expect(all.status).toBe(200);
    expect(all.body.__payload__.map((note: { id: number }) => note.id).sort((a: number, b: number) => a - b)).toEqual(acknowledged);
  });

  it('a database that cannot be written answers 503 storage_read_only, without a path, and reads go on', async () => {
    const dataDir = tempDir();
    const server = await serve(dataDir);
    const first = await post(server, { __meta__: { namespace: 'desk.Note', intent: 'create' }, text: 'kept' });
    expect(first.status).toBe(200);
    server.state.db.setup((connection) => connection.pragma('query_only = 1'));
    const refused = await post(server, { __meta__: { namespace: 'desk.Note', intent: 'create' }, text: 'refused' });
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBeNull();
    expect(refused.body.__errors__[0].code).toBe('storage_read_only');
    expect(refused.body.__errors__[0].message).not.toContain(dataDir);
    const read = await post(server, { __meta__: { namespace: 'desk.Note', intent: 'retrieve' } });
    expect(read.status).toBe(200);
    expect(read.body.__payload__.map((note: { text: string }) => note.text)).toEqual(['kept']);
    server.state.db.setup((connection) => connection.pragma('query_only = 0'));
    expect((await post(server, { __meta__: { namespace: 'desk.Note', intent: 'create' }, text: 'again' })).status).toBe(200);
  });

  it('names the cause of a file system fault of a write (an upload\'s blob), never its path', () => {
    const fault = (code: string, syscall: string) => Object.assign(new Error(`${code}: failed, ${syscall} '/data/blobs/tmp-1'`), { code, syscall, path: '/data/blobs/tmp-1' });
    expect(storageFault(fault('ENOSPC', 'write'))?.errors[0]?.code).toBe('storage_full');
    expect(storageFault(fault('EROFS', 'open'))?.errors[0]?.code).toBe('storage_read_only');
    expect(storageFault(fault('EACCES', 'mkdir'))?.errors[0]?.code).toBe('storage_read_only');
    expect(storageFault(fault('EACCES', 'scandir'))).toBeNull();
    expect(storageFault(new Error('a bug'))).toBeNull();
    expect(storageFault(fault('ENOSPC', 'write'))?.errors[0]?.message).not.toContain('/data');
  });
});
