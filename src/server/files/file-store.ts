/**
 * The content-addressed store of uploaded bytes (docs/protocol.md "Multipart uploads"): an upload streams to a temp file
 * under `<data>/files/tmp` while its SHA-256 is computed, then moves to `<data>/files/ab/cd/<sha256>`,
 * so the same bytes are stored once whatever their names. A blob lives as long as a `jql_files` row
 * names its hash; the rows are written in the transaction of the record that holds the file, so a
 * request that fails releases its blobs and leaves nothing behind.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { mkdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Database } from '../db/database.ts';
import { untracked } from '../db/sql-session.ts';

export interface StagedBytes {
  tempPath: string;
  sha256: string;
  size: number;
}

const SHA256 = /^[0-9a-f]{64}$/;

export class FileStore {
  readonly root: string;
  readonly tmpDir: string;
  /** Blobs promoted by requests still running, by hash: they stay even before a row names them. */
  private readonly pending = new Map<string, number>();
  private readonly db: Database;

  constructor(dataDir: string, db: Database) {
    this.root = join(dataDir, 'files');
    this.tmpDir = join(this.root, 'tmp');
    this.db = db;
  }

  /** Whether a committed file row names the blob (rows of open transactions come with a hold). */
  private referenced(sha256: string): boolean {
    return this.db.read((statements) => untracked(statements).get('SELECT 1 AS found FROM jql_files WHERE sha256 = ? LIMIT 1', [sha256])) !== undefined;
  }

  blobPath(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error('not a SHA-256 hex digest');
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  /**
   * Streams `source` to a new temp file, hashing it on the way; never holds the whole file. Past
   * `maxBytes` nothing more is written, but the source is read to its end (a multipart parser waits
   * for each part to be consumed) and `size` keeps counting, so the caller sees `size > maxBytes`.
   */
  async stage(source: Readable, maxBytes = Infinity): Promise<StagedBytes> {
    mkdirSync(this.tmpDir, { recursive: true });
    const tempPath = join(this.tmpDir, `${randomBytes(12).toString('hex')}.part`);
    const hash = createHash('sha256');
    let size = 0;
    const out = createWriteStream(tempPath, { flags: 'wx' });
    try {
      await pipeline(
        source,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            size += chunk.length;
            if (size > maxBytes) continue;
            hash.update(chunk);
            yield chunk;
          }
        },
        out,
      );
    } catch (error) {
      // The file may still be being opened when the source fails (a body cut right after a part):
      // unlinking before the stream has closed would leave the file it then creates behind.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await this.discard(tempPath);
      throw error;
    }
    return { tempPath, sha256: hash.digest('hex'), size };
  }

  async discard(tempPath: string): Promise<void> {
    await unlink(tempPath).catch(() => undefined);
  }

  /**
   * Moves staged bytes to their place in the store (or drops them when the same bytes are already
   * there) and holds the blob until `release`. Returns the blob's path.
   */
  async promote(staged: StagedBytes): Promise<string> {
    const target = this.blobPath(staged.sha256);
    this.pending.set(staged.sha256, (this.pending.get(staged.sha256) ?? 0) + 1);
    try {
      if (existsSync(target)) {
        await this.discard(staged.tempPath);
      } else {
        await mkdir(join(target, '..'), { recursive: true });
        await rename(staged.tempPath, target);
      }
    } catch (error) {
      this.release(staged.sha256);
      throw error;
    }
    return target;
  }

  /**
   * Ends a request's hold on a blob; removes the blob when no request holds it and no row names it.
   * Synchronous from the check to the unlink, so no other request can claim the blob in between.
   */
  release(sha256: string): void {
    const left = (this.pending.get(sha256) ?? 1) - 1;
    if (left > 0) {
      this.pending.set(sha256, left);
      return;
    }
    this.pending.delete(sha256);
    if (!this.referenced(sha256)) removeQuietly(this.blobPath(sha256));
  }

  /**
   * After a commit that dropped file rows: removes the blob when no row names it any more and no
   * running request holds it (that request's `release` checks again when it ends).
   */
  collect(sha256: string): void {
    if (this.pending.has(sha256)) return;
    if (!this.referenced(sha256)) removeQuietly(this.blobPath(sha256));
  }

  /** At start: no request runs, so every temp file is a leftover and every unnamed blob an orphan. */
  sweep(): void {
    rmSync(this.tmpDir, { recursive: true, force: true });
    for (const first of listDir(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(first)) continue;
      for (const second of listDir(join(this.root, first))) {
        for (const name of listDir(join(this.root, first, second))) {
          if (SHA256.test(name) && !this.referenced(name)) removeQuietly(join(this.root, first, second, name));
        }
      }
    }
  }
}

function listDir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
