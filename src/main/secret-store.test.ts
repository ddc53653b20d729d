import { describe, expect, it } from 'vitest';
import { SecretStore, type SafeStorageLike } from './secret-store.ts';
import { memoryTextFile } from './text-file.ts';

/** A stand-in for safeStorage: reversible, and visibly not plain text. */
function fakeSafeStorage(options: { available?: boolean; backend?: string } = {}): SafeStorageLike {
  return {
    isEncryptionAvailable: () => options.available ?? true,
    encryptString: (s) => Buffer.from(`enc:${Buffer.from(s).toString('hex')}`),
    decryptString: (b) => {
      const text = b.toString();
      if (!text.startsWith('enc:')) throw new Error('cannot decrypt');
      return Buffer.from(text.slice(4), 'hex').toString();
    },
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
  };
}

describe('SecretStore', () => {
  it('stores secrets encrypted and reads them back after a restart', async () => {
    const file = memoryTextFile();
    const store = new SecretStore(fakeSafeStorage(), file);
    await store.set('token:conn-1', 'eyJhbGciOi.secret');
    expect(file.text).not.toContain('eyJhbGciOi.secret');
    expect(await store.get('token:conn-1')).toBe('eyJhbGciOi.secret');

    const again = new SecretStore(fakeSafeStorage(), file);
    expect(await again.get('token:conn-1')).toBe('eyJhbGciOi.secret');
    await again.delete('token:conn-1');
    expect(await new SecretStore(fakeSafeStorage(), file).get('token:conn-1')).toBeNull();
  });

  it('keeps secrets in memory only when encryption is unavailable or only a hard-coded key', async () => {
    for (const safe of [fakeSafeStorage({ available: false }), fakeSafeStorage({ backend: 'basic_text' })]) {
      const file = memoryTextFile();
      const store = new SecretStore(safe, file);
      expect(store.persistent).toBe(false);
      await store.set('token:a', 'secret');
      expect(await store.get('token:a')).toBe('secret');
      expect(file.text).toBeNull();
    }
  });

  it('drops entries it cannot decrypt and survives a damaged file', async () => {
    const file = memoryTextFile(JSON.stringify({ version: 1, entries: { 'token:a': Buffer.from('garbage').toString('base64') } }));
    expect(await new SecretStore(fakeSafeStorage(), file).get('token:a')).toBeNull();
    expect(await new SecretStore(fakeSafeStorage(), memoryTextFile('{oops')).get('token:a')).toBeNull();
  });

  it('refuses odd keys', async () => {
    const store = new SecretStore(fakeSafeStorage(), memoryTextFile());
    await expect(store.get('../../etc')).rejects.toThrow('Invalid secret key.');
    await expect(store.set('', 'x')).rejects.toThrow();
  });
});
