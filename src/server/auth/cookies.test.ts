import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE, clearedSessionCookieOptions, sessionCookieOptions } from './cookies.ts';

describe('session cookie', () => {
  it('is named jql_session', () => {
    expect(SESSION_COOKIE).toBe('jql_session');
  });

  it('is HttpOnly, SameSite=Lax, Path=/ with a Max-Age in seconds', () => {
    expect(sessionCookieOptions(3600.7)).toEqual({ httpOnly: true, sameSite: 'lax', path: '/', maxAge: 3600, secure: 'auto' });
    expect(sessionCookieOptions(60, true).secure).toBe(true);
  });

  it('is cleared with Max-Age 0', () => {
    expect(clearedSessionCookieOptions().maxAge).toBe(0);
  });
});
