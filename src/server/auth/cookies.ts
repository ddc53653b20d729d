// The session cookie (docs/protocol.md "Authentication"): its name and the attributes to set it with through @fastify/cookie.

export const SESSION_COOKIE = 'jql_session';

/** Structurally the subset of @fastify/cookie's CookieSerializeOptions used here (no fastify import). */
export interface SessionCookieOptions {
  httpOnly: true;
  sameSite: 'lax';
  path: string;
  maxAge: number;
  secure: boolean | 'auto';
}

/**
 * `secure: 'auto'` lets @fastify/cookie add Secure on HTTPS requests only: the embedded server speaks
 * plain HTTP on 127.0.0.1, where browsers differ on whether a Secure cookie is kept.
 */
export function sessionCookieOptions(maxAgeSeconds: number, secure: boolean | 'auto' = 'auto'): SessionCookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', maxAge: Math.max(0, Math.floor(maxAgeSeconds)), secure };
}

/** Options that make the browser drop the cookie (logout). */
export function clearedSessionCookieOptions(secure: boolean | 'auto' = 'auto'): SessionCookieOptions {
  return sessionCookieOptions(0, secure);
}
