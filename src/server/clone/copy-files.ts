/**
 * The files of the copied records. Every file value becomes a file row of the copy (name, size, type,
 * SHA-256): its metadata is always copied. With `--with-files` the bytes are fetched too, once per
 * SHA-256, skipping bytes the store already holds and files over the copy's size limit, streamed into
 * the content-addressed store and checked against the SHA-256 and size the source gave. Without it
 * (or for a redacted file) the row names bytes the store does not hold, and the local server answers
 * that file's URL `not_found`, saying so.
 */
import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { UploadedFile } from '../context.ts';
import type { FileStore } from '../files/file-store.ts';
import type { FileRef } from './prepare-rows.ts';
import { CloneCancelledError, RemoteError, type RemoteServer } from './remote-server.ts';

export interface FileCopyReport {
  /** File rows written without bytes (no --with-files, or redacted). */
  metadataOnly: number;
  downloaded: number;
  /** Bytes the store already held. */
  alreadyStored: number;
  /** Files whose bytes were asked for and not copied, with why. */
  skipped: Array<{ name: string; sha256: string; reason: string }>;
}

export interface CopiedFiles {
  /** Local file id -> the row to attach. */
  uploads: Map<string, UploadedFile>;
  /** Hashes this copy holds in the store until its rows are committed (`release` each after). */
  held: string[];
  report: FileCopyReport;
}

export interface FileCopyOptions {
  download: boolean;
  /** One file's bytes at most: the local server's limit, never the source's. */
  maxFileBytes: number;
  /** All bytes this copy downloads together; files past it keep their row without bytes. */
  maxTotalBytes: number;
  onFile?: (done: number, total: number) => void;
}

export async function copyFiles(store: FileStore, remote: RemoteServer, refs: Iterable<FileRef>, options: FileCopyOptions): Promise<CopiedFiles> {
  const report: FileCopyReport = { metadataOnly: 0, downloaded: 0, alreadyStored: 0, skipped: [] };
  const uploads = new Map<string, UploadedFile>();
  const fetchable = new Map<string, FileRef>();
  for (const ref of refs) {
    if (uploads.has(ref.localId)) continue;
    const { value } = ref;
    uploads.set(ref.localId, { id: ref.localId, name: value.name, size: value.size, contentType: value.content_type, sha256: value.sha256, path: store.blobPath(value.sha256) });
    if (!options.download || ref.redacted) report.metadataOnly += 1;
    else if (!fetchable.has(value.sha256)) fetchable.set(value.sha256, ref);
  }
  const held: string[] = [];
  let done = 0;
  let total = 0;
  for (const [sha256, ref] of fetchable) {
    options.onFile?.(done++, fetchable.size);
    if (existsSync(store.blobPath(sha256))) {
      report.alreadyStored += 1;
      continue;
    }
    if (ref.value.size > options.maxFileBytes) {
      report.skipped.push({ name: ref.value.name, sha256, reason: `${ref.value.size} bytes, over the limit of ${options.maxFileBytes}` });
      continue;
    }
    if (total + ref.value.size > options.maxTotalBytes) {
      report.skipped.push({ name: ref.value.name, sha256, reason: `${ref.value.size} bytes more would pass the ${options.maxTotalBytes} bytes allowed for all the files of one clone` });
      continue;
    }
    try {
      await download(store, remote, ref, options.maxFileBytes);
      total += ref.value.size;
      held.push(sha256);
      report.downloaded += 1;
    } catch (error) {
      if (error instanceof CloneCancelledError) {
        for (const hash of held) store.release(hash);
        throw error;
      }
      report.skipped.push({ name: ref.value.name, sha256, reason: error instanceof RemoteError || error instanceof FileMismatch ? error.message : `could not be stored (${(error as Error).message})` });
    }
  }
  options.onFile?.(done, fetchable.size);
  return { uploads, held, report };
}

class FileMismatch extends Error {}

async function download(store: FileStore, remote: RemoteServer, ref: FileRef, maxBytes: number): Promise<void> {
  const response = await remote.download(ref.value.url);
  if (!response.body) throw new FileMismatch('the source answered without a body');
  const staged = await store.stage(Readable.from(capped(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), Math.min(maxBytes, ref.value.size))));
  if (staged.sha256 !== ref.value.sha256 || staged.size !== ref.value.size) {
    await store.discard(staged.tempPath);
    throw new FileMismatch(`the bytes served (${staged.size} bytes) do not match the file's SHA-256 and size`);
  }
  await store.promote(staged);
}

/** Passes at most `max` bytes on: a source that sends more than the file's size is cut off. */
async function* capped(source: AsyncIterable<Buffer>, max: number): AsyncGenerator<Buffer> {
  let seen = 0;
  for await (const chunk of source) {
    seen += chunk.length;
    if (seen > max) throw new FileMismatch(`the source sent more bytes than the file's size (${max})`);
    yield chunk;
  }
}
