// The server's signing secret (docs/protocol.md "Authentication"): it signs tokens (HS256) and protected file URLs.
// It comes from JQL_SECRET, else from <data>/secret.key, which the first start creates.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SECRET_FILE = 'secret.key';

/**
 * The file holds 32 random bytes as base64url text and the key is that text's UTF-8 bytes, exactly as
 * JQL_SECRET is used: `JQL_SECRET=$(cat secret.key)` therefore keeps existing tokens and URLs valid.
 */
export function loadSecret(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  // An empty JQL_SECRET would be a zero-length HMAC key, i.e. no secret at all: treat it as unset.
  if (env.JQL_SECRET) return Buffer.from(env.JQL_SECRET, 'utf8');
  const file = join(dataDir, SECRET_FILE);
  return readSecretFile(file) ?? createSecretFile(dataDir, file);
}

function readSecretFile(file: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  // Tolerate the trailing newline an editor adds; refuse an empty file rather than sign with nothing.
  const secret = text.trim();
  if (secret === '') throw new Error(`${file} is empty: delete it to generate a new secret, or set JQL_SECRET`);
  return Buffer.from(secret, 'utf8');
}

function createSecretFile(dataDir: string, file: string): Buffer {
  mkdirSync(dataDir, { recursive: true });
  const text = randomBytes(32).toString('base64url');
  const temp = join(dataDir, `.${SECRET_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  // Written whole to a temp file first, so a crash never leaves a half-written secret behind.
  writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
  try {
    // A hard link publishes without overwriting: if another process (the desktop app and `serve`
    // sharing a data directory) won the race, both end up using the winner's secret.
    linkSync(temp, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      unlinkSync(temp);
      return readSecretFile(file) ?? createSecretFile(dataDir, file);
    }
    // File systems without hard links: fall back to an atomic (last writer wins) rename.
    renameSync(temp, file);
    return Buffer.from(text, 'utf8');
  }
  unlinkSync(temp);
  return Buffer.from(text, 'utf8');
}
