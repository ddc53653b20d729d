/**
 * The HTTP request main sends for the page, as the proxies see it: Electron's ClientRequest in the
 * app (electron-outgoing.ts), Node's http client in tests (testing/node-outgoing.ts). Both stream
 * the body out and the answer in, so neither is ever held whole twice.
 */

/** The answer of an OutgoingRequest (Electron's IncomingMessage, Node's http.IncomingMessage). */
export interface IncomingLike {
  statusCode: number;
  statusMessage: string;
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface OutgoingRequest {
  setHeader(name: string, value: string): void;
  write(chunk: Uint8Array, callback: () => void): void;
  end(): void;
  abort(): void;
  /** Bytes the network stack has sent, when it can tell (Electron: getUploadProgress().current). */
  uploaded(): number | null;
  on(event: 'response', listener: (response: IncomingLike) => void): unknown;
  /** A redirect the network stack stopped before following it (Electron's `redirect: 'manual'`). */
  on(event: 'redirect', listener: (statusCode: number, location: string) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface OpenRequestOptions {
  method: string;
  url: string;
  /** The connection whose cookie jar the request uses, or null for none. */
  jar: string | null;
}

export type OpenRequest = (options: OpenRequestOptions) => OutgoingRequest;
