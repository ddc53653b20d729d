/**
 * Reads the parts of a `PUT /jql` request (docs/protocol.md "Multipart uploads") in the order the contract sets: the
 * `query` part first (a text field or a file holding the JSON query), handed to `plan` to be parsed
 * and authorized before anything else is read; then the file parts, each refused before a byte of it
 * is written unless the plan says a query uses it, and otherwise streamed to a temp file of the store
 * while its SHA-256 is computed. The parts together are bounded by `maxUploadBytes`. On any failure
 * the rest of the body is drained (so the client can read the answer), every temp file is removed
 * and the failure is thrown: a refused upload leaves nothing on disk. Only what the client sent is a
 * 4xx; the server's own trouble (a full disk) is thrown as it is, to be logged and answered as an
 * internal error that shows neither the file system's message nor the data directory's paths.
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { JqlFailure, jqlError } from '../errors.ts';
import type { FileStore, StagedBytes } from './file-store.ts';
import { cleanFileName } from './file-name.ts';

export const QUERY_PART = 'query';
const INVALID_JSON_FIELD = 'FST_INVALID_JSON_FIELD_ERROR';

export interface StagedPart {
  /** The part's name in the form. */
  part: string;
  /** Opaque id of the upload (the `jql_files` row it may become). */
  id: string;
  name: string;
  contentType: string;
  bytes: StagedBytes;
}

export interface Intake<P> {
  plan: P;
  files: StagedPart[];
}

export interface IntakeLimits {
  maxFileBytes: number;
  maxBodyBytes: number;
  maxUploadBytes: number;
}

/** What the query part decides about the parts after it; throws to refuse the request. */
export type PlanQuery<P extends { accepts(part: string): boolean }> = (query: string) => Promise<P>;

export async function receiveParts<P extends { accepts(part: string): boolean }>(
  parts: AsyncIterable<Multipart>,
  store: FileStore,
  limits: IntakeLimits,
  planQuery: PlanQuery<P>,
): Promise<Intake<P>> {
  const files: StagedPart[] = [];
  const seen = new Set<string>();
  let plan: P | undefined;
  let failure: JqlFailure | Error | null = null;
  // Bytes of the parts read so far, against limits.maxUploadBytes.
  let received = 0;
  try {
    for await (const part of parts) {
      if (failure) {
        if (part.type === 'file') await drain(part.file);
        continue;
      }
      try {
        if (plan === undefined && part.fieldname !== QUERY_PART) {
          throw refuse('invalid_request', `The "${QUERY_PART}" part comes first: the server reads and authorizes the query before any file part ("${part.fieldname}" came before it)`);
        }
        if (seen.has(part.fieldname)) throw refuse('invalid_request', `The form has two parts named "${part.fieldname}"; name each part differently`);
        seen.add(part.fieldname);
        if (part.fieldname === QUERY_PART) {
          const query = await readQuery(part, limits.maxBodyBytes);
          received += Buffer.byteLength(query);
          plan = await planQuery(query);
        } else if (part.type !== 'file') {
          throw refuse('validation_error', `Part "${part.fieldname}" is a text field: send files as file parts (with a file name)`, part.fieldname);
        } else if (!(plan as P).accepts(part.fieldname)) {
          throw refuse('validation_error', `Part "${part.fieldname}" is not used by the query: map a file field to it in sideEffects.fileFieldMapping`, part.fieldname);
        } else {
          const staged = await stagePart(part, store, limits.maxFileBytes, limits.maxUploadBytes - received, limits.maxUploadBytes);
          received += staged.bytes.size;
          files.push(staged);
        }
      } catch (error) {
        failure = toFailure(error);
        if (part.type === 'file') await drain(part.file);
      }
    }
  } catch (error) {
    // The plugin drops a text field it cannot parse as the JSON its type declares and reports that
    // at the end: such a query part is bad JSON, not a missing one.
    if (!failure || (error as { code?: string }).code === INVALID_JSON_FIELD) failure = toFailure(error);
  }
  if (!failure && plan === undefined) failure = refuse('invalid_request', 'PUT /jql needs a part named "query" holding the JSON query');
  if (failure) {
    await Promise.all(files.map((file) => store.discard(file.bytes.tempPath)));
    throw failure;
  }
  return { plan: plan as P, files };
}

async function stagePart(part: MultipartFile, store: FileStore, maxFileBytes: number, remaining: number, maxUploadBytes: number): Promise<StagedPart> {
  // Nothing past what is left of the upload's limit is written; the rest of the part is read and dropped.
  const bytes = await store.stage(part.file, remaining);
  if (bytes.size > remaining) {
    await store.discard(bytes.tempPath);
    throw refuse('payload_too_large', `The upload is larger than limits.maxUploadBytes (${maxUploadBytes} bytes) with file part "${part.fieldname}"`, part.fieldname);
  }
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
  if (code === INVALID_JSON_FIELD) return new JqlFailure([jqlError('invalid_json', 'The query part is not valid JSON')]);
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
