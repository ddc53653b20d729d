import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('stores a self-describing scrypt hash that verifies the right password only', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsf', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('verifies hashes made with other (stored) parameters', async () => {
    const stored = await hashPassword('pw');
    const [, , , , salt] = stored.split('$');
    // Re-derive with N=1024 to stand for an older, cheaper hash.
    const { scryptSync } = await import('node:crypto');
    const hash = scryptSync('pw', Buffer.from(salt, 'base64url'), 32, { N: 1024, r: 8, p: 1 }).toString('base64url');
    expect(await verifyPassword('pw', `scrypt$1024$8$1$${salt}$${hash}`)).toBe(true);
  });

  it.each([
    '',
    'plain-text-password',
    'scrypt$32768$8$1$c2FsdA',
    'bcrypt$32768$8$1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA',
    'scrypt$abc$8$1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA',
    'scrypt$1000$8$1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA', // N not a power of two
    'scrypt$1073741824$8$1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA', // N absurdly large
    'scrypt$32768$8$1$$aGFzaGhhc2hoYXNoaGFzaA', // no salt
    'scrypt$32768$8$1$c2FsdA$aGFzaA', // hash too short
  ])('returns false, never throws, for the malformed stored value %j', async (stored) => {
    await expect(verifyPassword('pw', stored)).resolves.toBe(false);
  });

  it('returns false for a non-string stored value', async () => {
    await expect(verifyPassword('pw', null as unknown as string)).resolves.toBe(false);
  });
});
