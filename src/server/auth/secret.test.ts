import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_FILE, loadSecret } from './secret.ts';

describe('loadSecret', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jql-secret-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a secret on first use, persists it with mode 0600 and reuses it', () => {
    const dataDir = join(dir, 'data'); // not created yet: the first start makes it
    const first = loadSecret(dataDir, {});
    const file = join(dataDir, SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // 32 random bytes, kept as base64url text (43 characters) whose bytes are the key.
    expect(first.toString('utf8')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(file)).toEqual(first);
    expect(loadSecret(dataDir, {})).toEqual(first);
  });

  it('leaves no temporary file behind', () => {
    loadSecret(dir, {});
    expect(readdirSync(dir)).toEqual([SECRET_FILE]);
  });

  it('gives each data directory its own secret', () => {
    expect(loadSecret(join(dir, 'a'), {})).not.toEqual(loadSecret(join(dir, 'b'), {}));
  });

  it('uses JQL_SECRET (its UTF-8 bytes) before any file, and writes nothing', () => {
    writeFileSync(join(dir, SECRET_FILE), 'from-file');
    expect(loadSecret(dir, { JQL_SECRET: 'clé' })).toEqual(Buffer.from('clé', 'utf8'));
    const empty = join(dir, 'empty');
    loadSecret(empty, { JQL_SECRET: 's' });
    expect(() => statSync(empty)).toThrow();
  });

  it('treats an empty JQL_SECRET as unset', () => {
    writeFileSync(join(dir, SECRET_FILE), 'from-file\n');
    expect(loadSecret(dir, { JQL_SECRET: '' }).toString()).toBe('from-file');
  });

  it('matches JQL_SECRET set to the file content, so a deployment can move the secret to the environment', () => {
    const fromFile = loadSecret(dir, {});
    expect(loadSecret(join(dir, 'elsewhere'), { JQL_SECRET: readFileSync(join(dir, SECRET_FILE), 'utf8') })).toEqual(fromFile);
  });

  it('refuses an empty secret file instead of signing with nothing', () => {
    writeFileSync(join(dir, SECRET_FILE), '\n');
    expect(() => loadSecret(dir, {})).toThrow(/empty/);
  });
});
