/**
 * An OutgoingRequest over Node's http client, for tests of main's proxies against real local
 * servers (the Electron network stack cannot run here). Like Electron's with `redirect: 'manual'`,
 * it never follows a redirect; cookies are not kept (`jar` is recorded for the test to read).
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import type { OpenRequestOptions, OutgoingRequest } from '../net/outgoing.ts';

export function nodeOutgoing(options: OpenRequestOptions, opened: OpenRequestOptions[] = []): OutgoingRequest {
  opened.push(options);
  const req: ClientRequest = httpRequest(options.url, { method: options.method });
  let sent = 0;
  return {
    setHeader: (name, value) => req.setHeader(name, value),
    write: (chunk, callback) => {
      sent += chunk.byteLength;
      req.write(chunk, () => callback());
    },
    end: () => void req.end(),
    abort: () => req.destroy(),
    uploaded: () => sent,
    on: (event: string, listener: (...args: never[]) => void) => {
      // Node's http client has no redirect event: a 3xx arrives as a response.
      if (event !== 'redirect') req.on(event, listener as (...args: unknown[]) => void);
      return undefined;
    },
  } as OutgoingRequest;
}
