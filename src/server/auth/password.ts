// Password hashing for system.User (docs/protocol.md "Authentication"): scrypt with a per-password salt, stored in a
// self-describing string so the cost parameters can be raised later without breaking old hashes.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

// N=2^15, r=8 costs ~32 MiB and a few tens of ms: OWASP's scrypt baseline is N=2^17 but a login that
// blocks the embedded server's thread pool for long is worse than a slightly cheaper hash here.
const N = 32768;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
// Upper bounds for stored parameters, so a tampered hash cannot make verify allocate gigabytes.
const MAX_N = 1 << 20;
const MAX_RP = 16;

function derive(plain: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  // scrypt refuses N*r*128 above maxmem (32 MiB by default); allow what the parameters need.
  const maxmem = 128 * (options.N ?? N) * (options.r ?? R) * 2;
  return new Promise((resolve, reject) => {
    scrypt(plain.normalize('NFC'), salt, keyLength, { ...options, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Returns `scrypt$N$r$p$salt$hash` (salt and hash base64url). */
export async function hashPassword(plain: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(plain, salt, KEY_BYTES, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/**
 * What a login verifies the password against when the username is unknown (or has no password): a
 * hash of the current parameters, so the unknown-user path runs the same scrypt as a wrong password
 * and takes the same time (docs/protocol.md "Authentication"). No password matches it: its key is all zeros and the
 * chance that a password derives to it is 2^-256.
 */
export const PLACEHOLDER_HASH = ['scrypt', N, R, P, Buffer.alloc(SALT_BYTES).toString('base64url'), Buffer.alloc(KEY_BYTES).toString('base64url')].join('$');

const positiveInt = (text: string): number => (/^[1-9][0-9]{0,7}$/.test(text) ? Number(text) : NaN);

/** True when `plain` matches `stored`; a malformed or foreign `stored` value is simply false. */
export async function verifyPassword(plain: string, stored: string): Promise<boolean> {
  if (typeof plain !== 'string' || typeof stored !== 'string') return false;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(positiveInt);
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  const powerOfTwo = (n & (n - 1)) === 0;
  if (!(n > 1 && n <= MAX_N && powerOfTwo && r <= MAX_RP && p <= MAX_RP)) return false;
  if (salt.length === 0 || expected.length < 16) return false;
  try {
    const actual = await derive(plain, salt, expected.length, { N: n, r, p });
    return timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}
