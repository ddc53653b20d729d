import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthError } from './auth-error.ts';
import { issueToken, verifyToken } from './tokens.ts';

const secret = Buffer.from('test-secret-with-enough-bytes-123', 'utf8');
const otherSecret = Buffer.from('another-secret-with-enough-bytes', 'utf8');

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AuthError);
  return (err as AuthError).reason;
}

describe('issueToken', () => {
  afterEach(() => vi.useRealTimers());

  it('signs HS256 with sub, jti, iat, exp and the credential generation', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2030-01-01T00:00:00Z') });
    const { token, jti, expiresAt } = await issueToken(secret, { id: 42, generation: 3 }, 3600);
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    const claims = decodeJwt(token);
    const iat = Date.parse('2030-01-01T00:00:00Z') / 1000;
    expect(claims).toEqual({ sub: '42', jti, iat, exp: iat + 3600, gen: 3 });
    expect(expiresAt.toISOString()).toBe('2030-01-01T01:00:00.000Z');
  });

  it('gives every token its own jti', async () => {
    const a = await issueToken(secret, { id: 1 }, 60);
    const b = await issueToken(secret, { id: 1 }, 60);
    expect(a.jti).not.toBe(b.jti);
  });

  it('refuses a lifetime under one second', async () => {
    await expect(issueToken(secret, { id: 1 }, 0)).rejects.toThrow(RangeError);
  });
});

describe('verifyToken', () => {
  afterEach(() => vi.useRealTimers());

  it('returns the user id, jti, exp and generation of a good token', async () => {
    const { token, jti, expiresAt } = await issueToken(secret, { id: 7, generation: 2 }, 60);
    expect(await verifyToken(secret, token, () => false)).toEqual({ userId: 7, jti, exp: expiresAt.getTime() / 1000, generation: 2 });
  });

  it('reads a token without a generation (issued before generations existed) as generation 0', async () => {
    const iat = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('7').setJti('j').setIssuedAt(iat).setExpirationTime(iat + 60).sign(secret);
    expect((await verifyToken(secret, token)).generation).toBe(0);
    const bad = await new SignJWT({ gen: -1 }).setProtectedHeader({ alg: 'HS256' }).setSubject('7').setJti('j').setIssuedAt(iat).setExpirationTime(iat + 60).sign(secret);
    expect(await reasonOf(verifyToken(secret, bad))).toBe('malformed');
  });

  it('refuses a token signed with another secret (bad_signature)', async () => {
    const { token } = await issueToken(otherSecret, { id: 7 }, 60);
    expect(await reasonOf(verifyToken(secret, token))).toBe('bad_signature');
  });

  it('refuses a token whose payload was altered (bad_signature)', async () => {
    const { token } = await issueToken(secret, { id: 7 }, 60);
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(JSON.stringify({ ...decodeJwt(token), sub: '1' })).toString('base64url');
    expect(await reasonOf(verifyToken(secret, `${header}.${payload}.${signature}`))).toBe('bad_signature');
  });

  it('refuses an expired token (expired)', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2030-01-01T00:00:00Z') });
    const { token } = await issueToken(secret, { id: 7 }, 60);
    vi.setSystemTime(new Date('2030-01-01T00:01:00Z'));
    expect(await reasonOf(verifyToken(secret, token))).toBe('expired');
  });

  it('says forged rather than expired for a forged, expired token', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2030-01-01T00:00:00Z') });
    const { token } = await issueToken(otherSecret, { id: 7 }, 60);
    vi.setSystemTime(new Date('2030-01-02T00:00:00Z'));
    expect(await reasonOf(verifyToken(secret, token))).toBe('bad_signature');
  });

  it('refuses a revoked jti (revoked), asking the check with the token id', async () => {
    const { token, jti } = await issueToken(secret, { id: 7 }, 60);
    const isRevoked = vi.fn(async (id: string) => id === jti);
    expect(await reasonOf(verifyToken(secret, token, isRevoked))).toBe('revoked');
    expect(isRevoked).toHaveBeenCalledWith(jti);
  });

  it.each(['', 'garbage', 'a.b.c', 'a.b', '....'])('refuses the malformed token %j (malformed)', async (token) => {
    expect(await reasonOf(verifyToken(secret, token))).toBe('malformed');
  });

  const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(secret);
  const exp = () => Math.floor(Date.now() / 1000) + 60;

  it.each([
    ['no sub', { jti: 'j', exp: 0 }],
    ['no jti', { sub: '1', exp: 0 }],
    ['no exp', { sub: '1', jti: 'j' }],
    ['a non-numeric sub', { sub: 'alice', jti: 'j', exp: 0 }],
    ['a zero sub', { sub: '0', jti: 'j', exp: 0 }],
    ['an unsafe integer sub', { sub: '99999999999999999999', jti: 'j', exp: 0 }],
  ])('refuses a correctly signed token with %s (malformed)', async (_label, claims) => {
    const withExp = 'exp' in claims ? { ...claims, exp: exp() } : claims;
    expect(await reasonOf(verifyToken(secret, await sign(withExp)))).toBe('malformed');
  });

  it('refuses an unsecured token (alg none) as malformed', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: '1', jti: 'j', exp: exp() })).toString('base64url');
    expect(await reasonOf(verifyToken(secret, `${header}.${payload}.`))).toBe('malformed');
  });

  it('refuses another HMAC algorithm than HS256', async () => {
    const token = await new SignJWT({ sub: '1', jti: 'j', exp: exp() }).setProtectedHeader({ alg: 'HS512' }).sign(secret);
    expect(await reasonOf(verifyToken(secret, token))).toBe('malformed');
  });
});
