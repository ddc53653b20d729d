/**
 * Reads the parts of a `PUT /jql` request (PROTOCOL.md 9.1): the `query` part (a text field or a
 * file holding the JSON query) and the file parts, each streamed to a temp file of the store while
 * its SHA-256 is computed. On any failure the rest of the body is drained, every temp file is removed
 * and the failure is thrown, so a refused upload leaves nothing on disk. Only what the client sent is
 * a 4xx; the server's own trouble (a full disk) is thrown as it is, to be logged and answered as an
 * internal error that shows neither the file system's message nor the data directory's paths.
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { JqlFailure, jqlError } from '../errors.ts';
import type { FileStore, StagedBytes } from './file-store.ts';
import { cleanFileName } from './file-name.ts';

export const QUERY_PART = 'query';

export interface StagedPart {
  /** The part's name in the form. */
  part: string;
  /** Opaque id of the upload (the `jql_files` row it may become). */
  id: string;
  name: string;
  contentType: string;
  bytes: StagedBytes;
}

export interface Intake {
  query: string;
  files: StagedPart[];
}

export interface IntakeLimits {
  maxFileBytes: number;
  maxBodyBytes: number;
}

export async function receiveParts(parts: AsyncIterable<Multipart>, store: FileStore, limits: IntakeLimits): Promise<Intake> {
  const files: StagedPart[] = [];
  const seen = new Set<string>();
  let query: string | undefined;
  let failure: JqlFailure | Error | null = null;
  try {
    for await (const part of parts) {
      if (failure) {
        if (part.type === 'file') await drain(part.file);
        continue;
      }
      try {
        if (seen.has(part.fieldname)) throw refuse('invalid_request', `The form has two parts named "${part.fieldname}"; name each part differently`);
        seen.add(part.fieldname);
        if (part.fieldname === QUERY_PART) query = await readQuery(part, limits.maxBodyBytes);
        else if (part.type === 'file') files.push(await stagePart(part, store, limits.maxFileBytes));
        else throw refuse('validation_error', `Part "${part.fieldname}" is a text field: send files as file parts (with a file name)`, part.fieldname);
      } catch (error) {
        failure = toFailure(error);
        if (part.type === 'file') await drain(part.file);
      }
    }
  } catch (error) {
    failure ??= toFailure(error);
  }
  if (!failure && query === undefined) failure = refuse('invalid_request', 'PUT /jql needs a part named "query" holding the JSON query');
  if (failure) {
    await Promise.all(files.map((file) => store.discard(file.bytes.tempPath)));
    throw failure;
  }
  return { query: query as string, files };
}

async function stagePart(part: MultipartFile, store: FileStore, maxFileBytes: number): Promise<StagedPart> {
  const bytes = await store.stage(part.file);
  // Busboy stops at the limit and marks the stream truncated; the size check is a second guard.
  if (part.file.truncated || bytes.size > maxFileBytes) {
    await store.discard(bytes.tempPath);
    throw refuse('payload_too_large', `File part "${part.fieldname}" is larger than the limit of ${maxFileBytes} bytes`, part.fieldname);
  }
  return {
    part: part.fieldname,
    id: randomBytes(16).toString('base64url'),
    name: cleanFileName(part.filename),
    contentType: cleanContentType(part.mimetype),
    bytes,
  };
}

async function readQuery(part: Multipart, maxBytes: number): Promise<string> {
  if (part.type === 'field') {
    if (part.valueTruncated) throw refuse('payload_too_large', `The query part is larger than the limit of ${maxBytes} bytes`);
    // A field sent as application/json arrives parsed; the JSON parser runs again with its depth limit.
    return typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw refuse('payload_too_large', `The query part is larger than the limit of ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  if (part.file.truncated) throw refuse('payload_too_large', 'The query part is larger than the file size limit');
  return Buffer.concat(chunks).toString('utf8');
}

const TOKEN = "[A-Za-z0-9!#$&^_.+-]+";
const CONTENT_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[^"\\\\\\p{Cc}]*"))*$`, 'u');

/** The type the client sent when it is a well-formed media type, else `application/octet-stream`. */
export function cleanContentType(type: string | undefined): string {
  const trimmed = (type ?? '').trim();
  return trimmed.length <= 200 && CONTENT_TYPE.test(trimmed) ? trimmed.toLowerCase() : 'application/octet-stream';
}

function refuse(code: 'invalid_request' | 'validation_error' | 'payload_too_large', message: string, part?: string): JqlFailure {
  return new JqlFailure([jqlError(code, message, part === undefined ? {} : { field: part, path: ['parts', part] })]);
}

/**
 * Multipart plugin and stream failures as coded errors: its limits are 413, malformed bodies 400. A
 * system error of the server's own files (it names a syscall: mkdir, open, write) stays an Error.
 */
function toFailure(error: unknown): JqlFailure | Error {
  if (error instanceof JqlFailure) return error;
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string') return error;
  const { statusCode, code } = error as { statusCode?: number; code?: string };
  if (statusCode === 413) return refuse('payload_too_large', 'The form has more parts than the server accepts');
  if (code === 'FST_INVALID_JSON_FIELD_ERROR') return new JqlFailure([jqlError('invalid_json', 'The query part is not valid JSON')]);
  return refuse('invalid_request', `The multipart body could not be read: ${(error as Error).message}`);
}

async function drain(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return;
  stream.resume();
  await new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
}
