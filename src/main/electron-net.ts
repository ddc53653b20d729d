/**
 * Main's network pieces on Electron: requests on Chromium's stack (system proxy and certificates),
 * one persistent cookie jar per connection, none for a request without credentials, and redirects
 * stopped before they are followed (`redirect: 'manual'` without followRedirect); the decisions are
 * in connections/ and net/, tested without Electron.
 */
import { net, session, type Session } from 'electron';
import type { OpenRequestOptions, OutgoingRequest } from './net/outgoing.ts';

/** Each connection's cookie jar, kept across restarts (session authentication). */
export const connectionSession = (jar: string): Session => session.fromPartition(`persist:jql-${jar}`);

/** Requests without credentials: an in-memory jar that nothing reads. */
const noCookies = (): Session => session.fromPartition('jql-no-credentials');

export function electronOutgoing(options: OpenRequestOptions & { streamed?: boolean }): OutgoingRequest {
  const request = net.request({
    method: options.method,
    url: options.url,
    session: options.jar ? connectionSession(options.jar) : noCookies(),
    credentials: options.jar ? 'include' : 'omit',
    useSessionCookies: options.jar !== null,
    redirect: 'manual',
  });
  // An upload streams in chunks instead of being buffered whole inside Electron.
  if (options.streamed) request.chunkedEncoding = true;
  const redirectListeners: Array<(status: number, location: string) => void> = [];
  request.on('redirect', (statusCode, _method, redirectUrl) => {
    for (const listener of redirectListeners) listener(statusCode, redirectUrl);
  });
  return {
    setHeader: (name, value) => request.setHeader(name, value),
    write: (chunk, callback) => request.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), undefined, callback),
    end: () => void request.end(),
    abort: () => request.abort(),
    uploaded: () => {
      const progress = request.getUploadProgress();
      return progress.started ? progress.current : null;
    },
    on: (event: 'response' | 'redirect' | 'error', listener: (...args: never[]) => void) => {
      if (event === 'redirect') redirectListeners.push(listener as (status: number, location: string) => void);
      else request.on(event as 'error', listener as (error: Error) => void);
      return undefined;
    },
  } as OutgoingRequest;
}

/** The addresses Chromium's resolver gives for a name (the stack the request will use). */
export async function resolveHost(hostname: string): Promise<string[]> {
  const resolved = await session.defaultSession.resolveHost(hostname);
  return resolved.endpoints.map((e) => e.address);
}

/** A connection's cookies for `url` as a Cookie header (its stream socket), or null. */
export async function cookieHeader(jar: string, url: string): Promise<string | null> {
  const cookies = await connectionSession(jar).cookies.get({ url });
  return cookies.length > 0 ? cookies.map((c) => `${c.name}=${c.value}`).join('; ') : null;
}

/** The connection's cookies go (its origin changed, or it was removed). */
export async function clearCookies(jar: string): Promise<void> {
  await connectionSession(jar).clearStorageData({ storages: ['cookies'] });
}
