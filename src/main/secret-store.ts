/**
 * Tokens and passwords encrypted with Electron's safeStorage (the OS keychain, DPAPI or libsecret)
 * in one file under userData. Where safeStorage cannot encrypt for real (no keyring on Linux, which
 * falls back to a hard-coded key), secrets stay in memory for the session and are never written.
 */
import { SECRET_KEY_PATTERN } from '../shared/bridge.ts';
import type { TextFile } from './text-file.ts';

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means a hard-coded key, i.e. no real protection. */
  getSelectedStorageBackend?(): string;
}

interface SecretFileContent {
  version: 1;
  entries: Record<string, string>;
}

export class SecretStore {
  private entries: Map<string, string> | null = null;
  private loading: Promise<Map<string, string>> | null = null;

  private safe: SafeStorageLike;
  private file: TextFile;

  constructor(safe: SafeStorageLike, file: TextFile) {
    this.safe = safe;
    this.file = file;
  }

  /** True when secrets survive a restart; false when they live in memory only. */
  get persistent(): boolean {
    if (!this.safe.isEncryptionAvailable()) return false;
    return this.safe.getSelectedStorageBackend?.() !== 'basic_text';
  }

  async get(key: string): Promise<string | null> {
    checkKey(key);
    return (await this.load()).get(key) ?? null;
  }

  async set(key: string, value: string): Promise<void> {
    checkKey(key);
    if (typeof value !== 'string' || value.length > 64 * 1024) throw new Error('A secret must be a string of at most 64 KiB.');
    (await this.load()).set(key, value);
    await this.save();
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    if ((await this.load()).delete(key)) await this.save();
  }

  private async load(): Promise<Map<string, string>> {
    if (this.entries) return this.entries;
    this.loading ??= this.readAll().then((m) => (this.entries = m));
    return this.loading;
  }

  private async readAll(): Promise<Map<string, string>> {
    const entries = new Map<string, string>();
    if (!this.persistent) return entries;
    const text = await this.file.read().catch(() => null);
    if (!text) return entries;
    try {
      const content = JSON.parse(text) as SecretFileContent;
      for (const [key, encrypted] of Object.entries(content.entries ?? {})) {
        try {
          entries.set(key, this.safe.decryptString(Buffer.from(encrypted, 'base64')));
        } catch {
          // Encrypted under another OS user or keychain: unreadable, so it is dropped.
        }
      }
    } catch {
      // A damaged file loses the stored tokens, which only means signing in again.
    }
    return entries;
  }

  private async save(): Promise<void> {
    if (!this.persistent || !this.entries) return;
    const entries: Record<string, string> = {};
    for (const [key, value] of this.entries) entries[key] = this.safe.encryptString(value).toString('base64');
    await this.file.write(JSON.stringify({ version: 1, entries } satisfies SecretFileContent));
  }
}

function checkKey(key: string): void {
  if (typeof key !== 'string' || !SECRET_KEY_PATTERN.test(key)) throw new Error('Invalid secret key.');
}
