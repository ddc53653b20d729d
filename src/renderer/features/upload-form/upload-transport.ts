/**
 * How the upload form sends a multipart request, apart from the app's JSON transport because it
 * needs upload progress and cancel. The browser implementation uses XMLHttpRequest (fetch reports no
 * upload progress); in Electron bridge-upload-transport.ts carries uploads through main.
 */
import { currentPage, localAdminHeaders, type LocalAdminPage } from '../../transport/local-admin-secret.ts';
import { DEFAULT_ANSWER_LIMIT_BYTES } from '../../transport/transport.ts';
import type { UploadPart } from './build-upload.ts';

export interface UploadRequest {
  /** The connection uploaded to (its cookie jar, in Electron). */
  connectionId: string;
  url: string;
  headers: Record<string, string>;
  /** Send cookies cross-origin (session authentication). */
  withCredentials: boolean;
  parts: UploadPart[];
}

export interface UploadProgress {
  loaded: number;
  /** Null when the total is not known. */
  total: number | null;
}

export interface UploadResponse {
  status: number;
  statusText: string;
  body: ArrayBuffer;
  timeMs: number;
}

export interface UploadTransport {
  upload(request: UploadRequest, options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal }): Promise<UploadResponse>;
}

/** The user pressed cancel. */
export class UploadCancelledError extends Error {
  override readonly name = 'UploadCancelledError';
  constructor() {
    super('The upload was cancelled.');
  }
}

export class UploadNetworkError extends Error {
  override readonly name = 'UploadNetworkError';
}

export function toFormData(parts: UploadPart[]): FormData {
  const form = new FormData();
  for (const part of parts) {
    if (part.kind === 'field') form.append(part.name, part.value);
    else form.append(part.name, part.file, part.file.name);
  }
  return form;
}

/** The members of XMLHttpRequest this transport uses; tests pass a fake. */
export interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: FormData): void;
  abort(): void;
  withCredentials: boolean;
  responseType: XMLHttpRequestResponseType;
  readonly status: number;
  readonly statusText: string;
  readonly response: unknown;
  /** The address the answer came from (differs from the request's after a redirect). */
  readonly responseURL?: string;
  upload: { onprogress: ((event: ProgressEvent) => void) | null };
  /** Download progress: how much of the answer has arrived. */
  onprogress?: ((event: ProgressEvent) => void) | null;
  onload: ((event: ProgressEvent) => void) | null;
  onerror: ((event: ProgressEvent) => void) | null;
  onabort: ((event: ProgressEvent) => void) | null;
  ontimeout: ((event: ProgressEvent) => void) | null;
}

/** `page`: where the local admin's page secret comes from (transport/local-admin-secret.ts). */
export function createXhrUploadTransport(
  makeXhr: () => XhrLike = () => new XMLHttpRequest(),
  now: () => number = () => performance.now(),
  page: () => LocalAdminPage | null = currentPage,
): UploadTransport {
  return {
    upload(request, { onProgress, signal } = {}) {
      return new Promise<UploadResponse>((resolve, reject) => {
        if (signal?.aborted) {
          reject(new UploadCancelledError());
          return;
        }
        const xhr = makeXhr();
        const started = now();
        const onAbortSignal = () => xhr.abort();
        const done = () => signal?.removeEventListener('abort', onAbortSignal);
        xhr.open('PUT', request.url);
        xhr.responseType = 'arraybuffer';
        xhr.withCredentials = request.withCredentials;
        // The browser writes the multipart Content-Type with its boundary; never set it by hand.
        // An upload to the page's own origin carries the local admin's page secret (never one to another origin).
        for (const [name, value] of Object.entries({ ...request.headers, ...localAdminHeaders(request.url, page()) })) {
          if (name.toLowerCase() !== 'content-type') xhr.setRequestHeader(name, value);
        }
        xhr.upload.onprogress = (event) => onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : null });
        // An answer past the limit is not read to the end (issue 22: a 200 MB answer).
        let tooLarge = false;
        xhr.onprogress = (event) => {
          if (event.loaded > DEFAULT_ANSWER_LIMIT_BYTES && !tooLarge) {
            tooLarge = true;
            xhr.abort();
          }
        };
        xhr.onload = () => {
          done();
          // XMLHttpRequest follows redirects by itself: an answer from elsewhere is not this server's.
          if (xhr.responseURL && new URL(xhr.responseURL).origin !== new URL(request.url, 'http://x').origin) {
            reject(new UploadNetworkError(`The upload was redirected to ${new URL(xhr.responseURL).origin}, which answered; that answer is not shown as ${new URL(request.url, 'http://x').origin}'s.`));
            return;
          }
          const body = xhr.response instanceof ArrayBuffer ? xhr.response : new ArrayBuffer(0);
          resolve({ status: xhr.status, statusText: xhr.statusText, body, timeMs: now() - started });
        };
        xhr.onerror = () => {
          done();
          reject(new UploadNetworkError(`Could not reach ${request.url}.`));
        };
        xhr.ontimeout = () => {
          done();
          reject(new UploadNetworkError(`No answer from ${request.url}.`));
        };
        xhr.onabort = () => {
          done();
          reject(tooLarge ? new UploadNetworkError(`The answer is larger than the answer limit (${DEFAULT_ANSWER_LIMIT_BYTES / 1024 / 1024} MiB): the console stopped reading it.`) : new UploadCancelledError());
        };
        signal?.addEventListener('abort', onAbortSignal);
        xhr.send(toFormData(request.parts));
      });
    },
  };
}
