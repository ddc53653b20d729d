/**
 * Reads the answer to a request main sent for the page, under two rules that hold for every request
 * (issue 21.4, 21.5): no redirect is followed, whatever its status (a hostile server's 307 to a
 * loopback service gets nothing: not the body, not the credential), and an answer is read only up to
 * the connection's answer limit, as it streams in; above it main stops reading and says so.
 */
import type { ProxyResponse } from '../../shared/bridge.ts';
import { plainLabel } from '../../shared/plain-label.ts';
import type { IncomingLike, OutgoingRequest } from './outgoing.ts';

export class RedirectRefusedError extends Error {
  override readonly name = 'RedirectRefusedError';
}

export class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function formatLimit(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

export function redirectRefused(url: string, status: number, location: string): RedirectRefusedError {
  return new RedirectRefusedError(`Refused: ${url} answered ${status}, a redirect to ${location || 'another address'}; the console follows no redirects, so nothing was sent there.`);
}

export function answerTooLarge(url: string, limit: number): AnswerTooLargeError {
  return new AnswerTooLargeError(
    `The answer from ${new URL(url).origin} is larger than this connection's answer limit (${formatLimit(limit)}), so the console stopped reading it. Ask for less (a limit, fewer fields) or raise the connection's answer limit.`,
  );
}

export interface AnswerOptions {
  url: string;
  limit: number;
  started: number;
  now: () => number;
  /** Called once with the whole answer, or once with why there is none. */
  done(response: ProxyResponse): void;
  fail(error: Error): void;
}

function header(headers: IncomingLike['headers'], name: string): string {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

export function receiveAnswer(outgoing: OutgoingRequest, options: AnswerOptions): void {
  const { url, limit } = options;
  let over = false;
  const stop = (error: Error) => {
    if (over) return;
    over = true;
    outgoing.abort();
    options.fail(error);
  };
  outgoing.on('redirect', (status, location) => stop(redirectRefused(url, status, location)));
  outgoing.on('response', (response) => {
    if (REDIRECTS.has(response.statusCode)) return stop(redirectRefused(url, response.statusCode, header(response.headers, 'location')));
    const declared = Number(header(response.headers, 'content-length'));
    if (Number.isFinite(declared) && declared > limit) return stop(answerTooLarge(url, limit));
    const chunks: Uint8Array[] = [];
    let received = 0;
    response.on('data', (chunk) => {
      if (over) return;
      received += chunk.byteLength;
      if (received > limit) return stop(answerTooLarge(url, limit));
      chunks.push(chunk);
    });
    response.on('error', (error) => stop(new Error(`The answer from ${url} broke off (${error.message}).`)));
    response.on('end', () => {
      if (over) return;
      over = true;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        // Cookies stay in main's jar; the page has no use for them.
        if (value !== undefined && name.toLowerCase() !== 'set-cookie') headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      const body = new Uint8Array(received);
      let at = 0;
      for (const c of chunks) {
        body.set(c, at);
        at += c.byteLength;
      }
      options.done({ status: response.statusCode, statusText: plainLabel(response.statusMessage ?? ''), headers, body, timeMs: options.now() - options.started });
    });
  });
}
