import { createHash } from 'node:crypto';
import type { SqlRunner } from '../db/sql-session.ts';
import { memoryDatabase } from '../testing/sqlite.ts';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureAuthTables } from './auth-tables.ts';
import {
  createSession,
  findSession,
  isJtiRevoked,
  purgeExpiredAuth,
  revokeJti,
  revokeSession,
  revokeUserSessions,
} from './sessions.ts';

const t0 = new Date('2030-01-01T00:00:00Z');
const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe('sessions', () => {
  let db: SqlRunner;
  let setupAgain: () => void;
  beforeEach(() => {
    const memory = memoryDatabase(ensureAuthTables);
    db = memory.sql;
    setupAgain = () => memory.db.setup(ensureAuthTables);
  });

  it('creates tables idempotently', () => {
    expect(setupAgain).not.toThrow();
  });

  it('creates a session whose cookie finds its user until it expires', () => {
    const { cookieValue, expiresAt } = createSession(db, 5, 3600, t0);
    expect(cookieValue).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt).toEqual(later(3600));
    expect(findSession(db, cookieValue, later(3599))).toEqual({ userId: 5 });
    expect(findSession(db, cookieValue, later(3600))).toBeNull();
  });

  it('stores only the sha256 of the cookie value', () => {
    const { cookieValue } = createSession(db, 5, 60, t0);
    const rows = db.all('SELECT * FROM jql_sessions') as Array<Record<string, unknown>>;
    expect(rows).toEqual([
      {
        id: createHash('sha256').update(cookieValue).digest('hex'),
        user_id: 5,
        created_at: t0.toISOString(),
        expires_at: later(60).toISOString(),
        revoked_at: null,
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(cookieValue);
  });

  it('finds nothing for an unknown or empty cookie', () => {
    createSession(db, 5, 60, t0);
    expect(findSession(db, 'not-a-session', t0)).toBeNull();
    expect(findSession(db, '', t0)).toBeNull();
  });

  it('finds nothing once the session is revoked; revoking again is harmless', () => {
    const { cookieValue } = createSession(db, 5, 60, t0);
    const other = createSession(db, 5, 60, t0);
    expect(revokeSession(db, cookieValue, t0)).toBe(true);
    expect(findSession(db, cookieValue, t0)).toBeNull();
    expect(findSession(db, other.cookieValue, t0)).toEqual({ userId: 5 });
    expect(revokeSession(db, cookieValue, t0)).toBe(false);
    expect(revokeSession(db, 'unknown', t0)).toBe(false);
  });

  it('revokes every session of one user', () => {
    const a = createSession(db, 5, 60, t0);
    const b = createSession(db, 5, 60, t0);
    const c = createSession(db, 6, 60, t0);
    expect(revokeUserSessions(db, 5, t0)).toBe(2);
    expect(findSession(db, a.cookieValue, t0)).toBeNull();
    expect(findSession(db, b.cookieValue, t0)).toBeNull();
    expect(findSession(db, c.cookieValue, t0)).toEqual({ userId: 6 });
  });

  it('records revoked token ids', () => {
    expect(isJtiRevoked(db, 'j1')).toBe(false);
    revokeJti(db, 'j1', later(60));
    revokeJti(db, 'j1', later(60));
    expect(isJtiRevoked(db, 'j1')).toBe(true);
    expect(isJtiRevoked(db, 'j2')).toBe(false);
  });

  it('purges expired and revoked sessions and revocations of expired tokens only', () => {
    const live = createSession(db, 1, 120, t0);
    createSession(db, 2, 30, t0);
    const revoked = createSession(db, 3, 120, t0);
    revokeSession(db, revoked.cookieValue, t0);
    revokeJti(db, 'old', later(30));
    revokeJti(db, 'current', later(120));
    expect(purgeExpiredAuth(db, later(60))).toEqual({ sessions: 2, revokedTokens: 1 });
    expect(findSession(db, live.cookieValue, later(60))).toEqual({ userId: 1 });
    expect(isJtiRevoked(db, 'current')).toBe(true);
    expect(isJtiRevoked(db, 'old')).toBe(false);
  });

  it('refuses a lifetime under one second', () => {
    expect(() => createSession(db, 1, 0, t0)).toThrow(RangeError);
  });
});
