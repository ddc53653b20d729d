// Bearer tokens (docs/protocol.md "Authentication"): HS256 JWTs with `sub` = user id, a random `jti` so one token can be
// revoked on logout, `iat`, `exp`, and `gen`, the user's credential generation when it was issued
// (auth/revocation.ts): a password change, a deactivation or a deletion moves the generation on,
// which retires every token issued before it at once.
import { randomBytes } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import { AuthError } from './auth-error.ts';

export interface IssuedToken {
  token: string;
  jti: string;
  expiresAt: Date;
}

export interface VerifiedToken {
  userId: number;
  jti: string;
  /** Expiry in seconds since the epoch, as in the token (revokeJti needs it). */
  exp: number;
  /** The credential generation it was issued in (0 when the token carries none). */
  generation: number;
}

/** Answers whether a token id was revoked (sessions.isJtiRevoked over the database, in production). */
export type RevocationCheck = (jti: string) => boolean | Promise<boolean>;

export async function issueToken(secret: Uint8Array, user: { id: number; generation?: number }, ttlSeconds: number): Promise<IssuedToken> {
  if (!(Number.isFinite(ttlSeconds) && ttlSeconds >= 1)) throw new RangeError(`token lifetime must be at least 1 second, got ${ttlSeconds}`);
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + Math.floor(ttlSeconds);
  const jti = randomBytes(16).toString('base64url');
  const token = await new SignJWT({ gen: user.generation ?? 0 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(user.id))
    .setJti(jti)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(secret);
  return { token, jti, expiresAt: new Date(exp * 1000) };
}

const isUserId = (sub: unknown): sub is string =>
  typeof sub === 'string' && /^[1-9][0-9]*$/.test(sub) && Number.isSafeInteger(Number(sub));

export async function verifyToken(secret: Uint8Array, token: string, isRevoked?: RevocationCheck): Promise<VerifiedToken> {
  let payload;
  try {
    // Only HS256: never let the token's header pick the algorithm (`none`, or an RS/HS confusion).
    ({ payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], requiredClaims: ['sub', 'jti', 'exp'] }));
  } catch (err) {
    // jose checks the signature before the claims, so a forged token reads as forged even if expired.
    if (err instanceof errors.JWSSignatureVerificationFailed) throw new AuthError('bad_signature', 'The token signature is not valid.');
    if (err instanceof errors.JWTExpired) throw new AuthError('expired', 'The token has expired.');
    throw new AuthError('malformed', 'The token is malformed.');
  }
  const { sub, jti, exp, gen } = payload;
  const generation = gen ?? 0;
  if (!isUserId(sub) || typeof jti !== 'string' || jti === '' || typeof exp !== 'number' || !Number.isSafeInteger(generation) || (generation as number) < 0) {
    throw new AuthError('malformed', 'The token is malformed.');
  }
  if (isRevoked && (await isRevoked(jti))) throw new AuthError('revoked', 'The token has been revoked.');
  return { userId: Number(sub), jti, exp, generation: generation as number };
}
