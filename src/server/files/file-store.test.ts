import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../db/database.ts';
import { untracked } from '../db/sql-session.ts';
import { tempDir } from '../testing/fixture.ts';
import { FileStore } from './file-store.ts';
import { ensureFileTables } from './file-table.ts';

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

describe('FileStore', () => {
  let dataDir: string;
  let db: Database;
  let store: FileStore;
  beforeEach(() => {
    dataDir = tempDir('jql-store-');
    db = new Database(join(dataDir, 'jql.sqlite'));
    db.setup(ensureFileTables);
    store = new FileStore(dataDir, db);
  });
  afterEach(() => {
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const addRow = (id: string, hash: string) =>
    untracked(db.committedWriter()).run("INSERT INTO jql_files (id, sha256, size, content_type, name, created_at) VALUES (?, ?, 1, 'x/y', 'n', 'now')", [id, hash]);

  it('hashes while it streams to a temp file, then moves the bytes under their hash', async () => {
    const staged = await store.stage(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(staged).toMatchObject({ sha256: sha256('hello world'), size: 11 });
    expect(staged.tempPath.startsWith(join(dataDir, 'files', 'tmp'))).toBe(true);
    const path = await store.promote(staged);
    expect(path).toBe(join(dataDir, 'files', staged.sha256.slice(0, 2), staged.sha256.slice(2, 4), staged.sha256));
    expect(readFileSync(path, 'utf8')).toBe('hello world');
    expect(existsSync(staged.tempPath)).toBe(false);
  });

  it('removes a released blob that no row names, and keeps one a row names', async () => {
    const orphan = await store.promote(await store.stage(Readable.from(['orphan'])));
    store.release(sha256('orphan'));
    expect(existsSync(orphan)).toBe(false);
    const kept = await store.promote(await store.stage(Readable.from(['kept'])));
    addRow('k', sha256('kept'));
    store.release(sha256('kept'));
    expect(existsSync(kept)).toBe(true);
  });

  it('keeps a blob while any request holds it, even when another holder fails', async () => {
    const first = await store.promote(await store.stage(Readable.from(['shared'])));
    const second = await store.promote(await store.stage(Readable.from(['shared'])));
    expect(second).toBe(first);
    // The failing request lets go first: the other still holds the blob and then commits a row.
    store.release(sha256('shared'));
    expect(existsSync(first)).toBe(true);
    addRow('s', sha256('shared'));
    store.release(sha256('shared'));
    expect(existsSync(first)).toBe(true);
  });

  it('sweeps leftover temp files and unnamed blobs at start', async () => {
    const named = await store.promote(await store.stage(Readable.from(['named'])));
    addRow('n', sha256('named'));
    store.release(sha256('named'));
    const hash = sha256('crashed');
    const stray = join(dataDir, 'files', hash.slice(0, 2), hash.slice(2, 4), hash);
    mkdirSync(join(stray, '..'), { recursive: true });
    writeFileSync(stray, 'crashed');
    mkdirSync(store.tmpDir, { recursive: true });
    writeFileSync(join(store.tmpDir, 'half.part'), 'half an upload');
    store.sweep();
    expect(existsSync(named)).toBe(true);
    expect(existsSync(stray)).toBe(false);
    expect(existsSync(store.tmpDir)).toBe(false);
  });

  it('removes the temp file of a stream that fails', async () => {
    const failing = new Readable({
      read() {
        this.push('partial');
        this.destroy(new Error('client went away'));
      },
    });
    await expect(store.stage(failing)).rejects.toThrow('client went away');
    expect(readdirSync(store.tmpDir)).toEqual([]);
  });
});
