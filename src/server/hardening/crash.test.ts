// Crash consistency: SIGKILL the server in the middle of concurrent writes and uploads, start it
// again on the same data directory: the database passes integrity_check, every acknowledged write and
// file is there, no file is orphaned or missing, and the event log has no gap.
import { openDatabase, openReader } from '../db/database.ts';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { form, VAULT_WORKSPACE } from '../testing/file-server.ts';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';
import { SOAK } from './harness.ts';
import { serve } from './server-process.ts';

const dir = tempDir('jql-crash-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function blobsOnDisk(root: string): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    for (const name of existsSync(path) ? readdirSync(path, { withFileTypes: true }) : []) {
      if (name.isDirectory()) walk(join(path, name.name));
      else out.push(name.name);
    }
  };
  walk(root);
  return out;
}

describe('crash consistency', () => {
  it('keeps every acknowledged write and file across kill -9', { timeout: SOAK ? 120_000 : 30_000 }, async () => {
    // The log keeps every event of the run, so it can be checked against every stored record.
    const workspace = writeWorkspace({ ...VAULT_WORKSPACE, limits: { ...VAULT_WORKSPACE.limits, maxStreamEvents: 10_000_000 } });
    const dataDir = join(dir, 'data');
    const rounds = SOAK ? 5 : 2;
    const ackedWrites = new Set<string>(); // titles
    const ackedUploads = new Map<string, string>(); // title -> sha256 of its file
    for (let round = 0; round < rounds; round++) {
      const server = await serve(workspace, dataDir);
      let stop = false;
      const writer = async (name: string) => {
        for (let i = 0; !stop && i < 100_000; i++) {
          const title = `${name}-${round}-${i}`;
          try {
            const res = await fetch(`${server.url}/jql`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ __meta__: { namespace: 'vault.Doc', intent: 'create', return: { id: null } }, title }),
            });
            if (res.status === 200) ackedWrites.add(title);
            await res.arrayBuffer();
          } catch {
            return; // the server is gone
          }
        }
      };
      const uploader = async (name: string) => {
        for (let i = 0; !stop && i < 100_000; i++) {
          const title = `${name}-${round}-${i}`;
          const query = { __meta__: { namespace: 'vault.Doc', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: 'f' } } }, title };
          try {
            const res = await fetch(`${server.url}/jql`, { method: 'PUT', body: form(query, { f: { data: `${title} `.repeat(500) } }) });
            const body = (await res.json()) as any;
            if (res.status === 200) ackedUploads.set(title, body.__payload__.file.sha256);
          } catch {
            return;
          }
        }
      };
      const loops = [writer('w1'), writer('w2'), writer('w3'), uploader('u1'), uploader('u2')];
      await new Promise((resolve) => setTimeout(resolve, SOAK ? 3000 : 700));
      await server.kill();
      stop = true;
      await Promise.all(loops);
    }
    expect(ackedWrites.size).toBeGreaterThan(10);
    expect(ackedUploads.size).toBeGreaterThan(0);

    // The database as the kill left it (opening it recovers the WAL).
    const db = openDatabase(join(dataDir, 'jql.sqlite'));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();

    const server = await serve(workspace, dataDir);
    try {
      const check = openReader(join(dataDir, 'jql.sqlite'));
      const titles = new Map((check.prepare('SELECT title, file FROM "vault.Doc"').all() as Array<{ title: string; file: string | null }>).map((r) => [r.title, r.file]));
      const fileRows = new Map((check.prepare('SELECT id, sha256 FROM jql_files').all() as Array<{ id: string; sha256: string }>).map((r) => [r.id, r.sha256]));
      for (const title of ackedWrites) expect(titles.has(title), `acknowledged ${title}`).toBe(true);
      for (const [title, sha] of ackedUploads) {
        expect(titles.has(title), `acknowledged upload ${title}`).toBe(true);
        expect(fileRows.get(titles.get(title) as string), `file of ${title}`).toBe(sha);
      }
      // No orphan: every blob on disk belongs to a file row; no dangling row: every row's blob exists.
      const onDisk = new Set(blobsOnDisk(join(dataDir, 'files')).filter((name) => /^[0-9a-f]{64}$/.test(name)));
      const wanted = new Set(fileRows.values());
      for (const blob of onDisk) expect(wanted.has(blob), `orphaned blob ${blob}`).toBe(true);
      for (const sha of wanted) expect(onDisk.has(sha), `missing blob ${sha}`).toBe(true);
      // The event log: the whole run from 1, consecutive sequence numbers, one created event per
      // stored record.
      const seqs = (check.prepare('SELECT seq FROM jql_events ORDER BY seq').all() as Array<{ seq: number }>).map((r) => r.seq);
      expect(seqs[0]).toBe(1);
      for (let i = 1; i < seqs.length; i++) expect(seqs[i], 'event log gap').toBe((seqs[i - 1] as number) + 1);
      const created = check.prepare(`SELECT count(*) AS n FROM jql_events WHERE namespace = 'vault.Doc' AND event = 'created'`).get() as { n: number };
      expect(created.n).toBe(titles.size);
      check.close();
      // And it still serves reads and writes.
      const res = await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ __meta__: { namespace: 'vault.Doc', intent: 'count' } }) });
      expect(((await res.json()) as any).__payload__.count).toBe(titles.size);
    } finally {
      await server.kill();
    }
  });
});
