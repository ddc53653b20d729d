/**
 * Multipart uploads that main performs for the renderer (`http:upload`): the parts arrive over IPC,
 * are encoded as multipart/form-data here and streamed to `PUT {base}/jql` with the connection's
 * credential (the gateway adds it, to the connection's origin only), with progress events and cancel
 * by upload id. The request is validated here because the renderer is not trusted. The network
 * request itself is behind `OutgoingRequest` (Electron's ClientRequest in the app, Node's in tests);
 * the answer is read like every other one (receive-answer: no redirects, the answer limit).
 */
import { randomBytes } from 'node:crypto';
import { UPLOAD_CANCELLED_MESSAGE, type ProxyResponse, type UploadIpcRequest, type UploadPartData, type UploadProgressEvent } from '../shared/bridge.ts';
import type { ConnectionGateway } from './connections/gateway.ts';
import { ProxyRequestError, validateConnectionId, validateHeaders, validateUrl } from './http-proxy.ts';
import type { OpenRequest } from './net/outgoing.ts';
import { receiveAnswer } from './net/receive-answer.ts';

/** Far above the server's default file limit (100 MiB): the server answers payload_too_large itself. */
export const MAX_UPLOAD_BYTES = 2 * 1024 ** 3;
const MAX_PARTS = 64;
const MAX_FIELD_CHARS = 10 * 1024 * 1024;
const MAX_TIMEOUT_MS = 60 * 60_000;
const DEFAULT_TIMEOUT_MS = 30 * 60_000;
const UPLOAD_ID = /^[A-Za-z0-9_-]{1,64}$/;
const CONTENT_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;[^\r\n]*)?$/;
const CHUNK = 256 * 1024;

function part(input: unknown, index: number): UploadPartData {
  if (typeof input !== 'object' || input === null) throw new ProxyRequestError(`Part ${index + 1} must be an object.`);
  const p = input as Record<string, unknown>;
  if (typeof p.name !== 'string' || p.name === '' || p.name.length > 200) throw new ProxyRequestError(`Part ${index + 1} needs a name of at most 200 characters.`);
  if (p.kind === 'field') {
    if (typeof p.value !== 'string' || p.value.length > MAX_FIELD_CHARS) throw new ProxyRequestError(`Part "${p.name}" needs a text value.`);
    return { kind: 'field', name: p.name, value: p.value };
  }
  if (p.kind === 'file') {
    if (!(p.data instanceof Uint8Array)) throw new ProxyRequestError(`Part "${p.name}" needs the file's bytes.`);
    if (typeof p.fileName !== 'string' || p.fileName.length > 255) throw new ProxyRequestError(`Part "${p.name}" needs a file name.`);
    const contentType = typeof p.contentType === 'string' && CONTENT_TYPE.test(p.contentType) ? p.contentType : 'application/octet-stream';
    return { kind: 'file', name: p.name, fileName: p.fileName, contentType, data: p.data };
  }
  throw new ProxyRequestError(`Part ${index + 1} must be a field or a file.`);
}

export function validateUploadRequest(input: unknown): UploadIpcRequest {
  if (typeof input !== 'object' || input === null) throw new ProxyRequestError('An upload must be an object.');
  const r = input as Record<string, unknown>;
  if (typeof r.uploadId !== 'string' || !UPLOAD_ID.test(r.uploadId)) throw new ProxyRequestError('Invalid upload id.');
  const connectionId = validateConnectionId(r.connectionId);
  const url = validateUrl(r.url, ['http:', 'https:']);
  const headers = validateHeaders(r.headers);
  // The boundary is main's to choose.
  for (const name of Object.keys(headers)) if (/^content-(type|length)$/i.test(name)) delete headers[name];
  if (!Array.isArray(r.parts) || r.parts.length === 0 || r.parts.length > MAX_PARTS) throw new ProxyRequestError(`An upload has 1 to ${MAX_PARTS} parts.`);
  const parts = r.parts.map(part);
  const bytes = parts.reduce((sum, p) => sum + (p.kind === 'file' ? p.data.byteLength : p.value.length), 0);
  if (bytes > MAX_UPLOAD_BYTES) throw new ProxyRequestError('The upload is too large.');
  const timeoutMs = typeof r.timeoutMs === 'number' && r.timeoutMs > 0 ? Math.min(r.timeoutMs, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
  return { uploadId: r.uploadId, connectionId, url: url.href, headers, parts, timeoutMs };
}

/** Quoted-string value of Content-Disposition, escaped as browsers do for form data (HTML spec). */
function quoted(value: string): string {
  return `"${value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')}"`;
}

export interface EncodedMultipart {
  contentType: string;
  chunks: Uint8Array[];
  total: number;
}

export function encodeMultipart(parts: UploadPartData[], boundary = `----jql-console-${randomBytes(12).toString('hex')}`): EncodedMultipart {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const p of parts) {
    const head =
      p.kind === 'field'
        ? `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(p.name)}\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(p.name)}; filename=${quoted(p.fileName)}\r\nContent-Type: ${p.contentType}\r\n\r\n`;
    chunks.push(encoder.encode(head));
    if (p.kind === 'field') chunks.push(encoder.encode(p.value));
    else for (let at = 0; at < p.data.byteLength; at += CHUNK) chunks.push(p.data.subarray(at, Math.min(at + CHUNK, p.data.byteLength)));
    chunks.push(encoder.encode('\r\n'));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, chunks, total: chunks.reduce((sum, c) => sum + c.byteLength, 0) };
}

export interface UploadDeps {
  gateway: Pick<ConnectionGateway, 'prepare'>;
  open: OpenRequest;
  onProgress(progress: UploadProgressEvent): void;
  now?: () => number;
  progressIntervalMs?: number;
}

/** The uploads in flight, by id, so `http:upload-cancel` can reach them. */
export class UploadProxy {
  private readonly running = new Map<string, () => void>();
  private readonly deps: UploadDeps;

  constructor(deps: UploadDeps) {
    this.deps = deps;
  }

  get active(): number {
    return this.running.size;
  }

  cancel(uploadId: string): void {
    this.running.get(uploadId)?.();
  }

  async perform(request: UploadIpcRequest): Promise<ProxyResponse> {
    if (this.running.has(request.uploadId)) throw new Error('An upload with that id is already running.');
    const prepared = await this.deps.gateway.prepare({ connectionId: request.connectionId, url: request.url, headers: request.headers, credentials: 'connection' });
    if (this.running.has(request.uploadId)) throw new Error('An upload with that id is already running.');
    const now = this.deps.now ?? (() => performance.now());
    const body = encodeMultipart(request.parts);
    const started = now();
    const outgoing = this.deps.open({ method: 'PUT', url: prepared.url, jar: prepared.jar });
    for (const [name, value] of Object.entries(prepared.headers)) outgoing.setHeader(name, value);
    outgoing.setHeader('Content-Type', body.contentType);

    return new Promise<ProxyResponse>((resolve, reject) => {
      let written = 0;
      let settled = false;
      let lastSent = -1;
      const progress = (loaded: number) => {
        if (loaded === lastSent) return;
        lastSent = loaded;
        this.deps.onProgress({ uploadId: request.uploadId, loaded, total: body.total });
      };
      const tick = setInterval(() => progress(Math.min(outgoing.uploaded() ?? written, body.total)), this.deps.progressIntervalMs ?? 100);
      const timeout = setTimeout(() => fail(new Error(`No answer from ${request.url} within ${Math.round((request.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s.`)), request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      const finish = () => {
        settled = true;
        clearInterval(tick);
        clearTimeout(timeout);
        this.running.delete(request.uploadId);
      };
      const fail = (error: Error) => {
        if (settled) return;
        finish();
        outgoing.abort();
        reject(error);
      };
      this.running.set(request.uploadId, () => fail(new Error(UPLOAD_CANCELLED_MESSAGE)));

      outgoing.on('error', (error) => fail(new Error(`Could not reach ${request.url} (${error.message}).`)));
      outgoing.on('response', () => progress(body.total));
      // The server may answer early (payload_too_large) before the body is all sent.
      receiveAnswer(outgoing, {
        url: request.url,
        limit: prepared.connection.answerLimit,
        started,
        now,
        done: (response) => {
          if (settled) return;
          finish();
          resolve(response);
        },
        fail,
      });

      // Write one chunk at a time: the next goes once the previous is taken (memory stays flat).
      let index = 0;
      const writeNext = () => {
        if (settled) return;
        const chunk = body.chunks[index++];
        if (!chunk) {
          outgoing.end();
          return;
        }
        outgoing.write(chunk, () => {
          written += chunk.byteLength;
          writeNext();
        });
      };
      progress(0);
      writeNext();
    });
  }
}
