/**
 * The known-client cookie (issue 30.9, docs/protocol.md "Authentication"): a successful login gives
 * the client a cookie bound to that username, and its later logins of that username are throttled as
 * a client of their own. So wrong passwords sent by anyone else (on a loopback server every caller is
 * the same address) cannot lock out a browser that signed in before. Nobody can make one without the
 * server's secret: a guesser who invents values is throttled by address like any other caller.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { throttleClient } from './login-throttle.ts';

export const KNOWN_CLIENT_COOKIE = 'jql_known_client';
/** A browser that signed in within this long stays a known client. */
export const KNOWN_CLIENT_MAX_AGE_SECONDS = 180 * 24 * 3600;

function mac(secret: Uint8Array, id: string, username: string): Buffer {
  return createHmac('sha256', secret).update(`known-client\0${id}\0${username}`).digest();
}

/** A new cookie value for a client that signed in as `username`. */
export function newKnownClient(secret: Uint8Array, username: string): string {
  const id = randomBytes(16).toString('base64url');
  return `${id}.${mac(secret, id, username).toString('base64url')}`;
}

/** The client's id when `value` is a known-client cookie this server made for `username`; else null. */
export function knownClientId(secret: Uint8Array, value: string | undefined, username: string): string | null {
  if (!value) return null;
  const [id, tag, extra] = value.split('.');
  if (!id || !tag || extra !== undefined) return null;
  const presented = Buffer.from(tag, 'base64url');
  const expected = mac(secret, id, username);
  return presented.length === expected.length && timingSafeEqual(presented, expected) ? id : null;
}

/** Who a login of `username` counts against in the throttle: its known-client id, else its address. */
export function loginClient(secret: Uint8Array, address: string | undefined, knownClient: string | undefined, username: string): string | undefined {
  const id = knownClientId(secret, knownClient, username);
  return id !== null ? `known:${id}` : throttleClient(address);
}
