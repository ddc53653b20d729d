/**
 * Where the console keeps the user's own documents: the editor tabs and the saved collections.
 * IndexedDB in a browser (idb-document-storage.ts), SQLite in main in the desktop app
 * (bridge-document-storage.ts), memory in tests. Unlike localStorage (about 5 MB per site, and a
 * write that fails only by throwing where nobody listens), a write here resolves once the data is
 * stored and rejects with a reason a person can act on; the stores above say what was not saved.
 */
import type { DocumentChange } from '../../shared/bridge.ts';

export type { DocumentChange };

export interface DocumentStorage {
  /** Where the documents live, in words: "this browser's IndexedDB", "the app's database". */
  readonly place: string;
  get(key: string): Promise<string | null>;
  /** Writes several keys at once: all of them or none. */
  write(changes: readonly DocumentChange[]): Promise<void>;
}

/** The reason a write failed, in words (a full disk or quota reads as such, not as an exception name). */
export function storageErrorMessage(err: unknown): string {
  const e = err as { name?: string; message?: string } | null;
  if (e?.name === 'QuotaExceededError' || /quota/i.test(e?.message ?? '')) return 'the storage for this console is full';
  if (/disk (I\/O error|is full)|SQLITE_FULL|ENOSPC/i.test(e?.message ?? '')) return 'the disk is full';
  const message = (e?.message ?? String(err)).replace(/^Error invoking remote method '[^']+': (\w*Error: )?/, '');
  return message || 'the storage refused the write';
}

export class MemoryDocumentStorage implements DocumentStorage {
  readonly place = 'memory (nothing is kept after this page closes)';
  readonly data = new Map<string, string>();
  /** Tests set this to make writes fail. */
  failWith: Error | null = null;

  async get(key: string): Promise<string | null> {
    return this.data.get(key) ?? null;
  }

  async write(changes: readonly DocumentChange[]): Promise<void> {
    if (this.failWith) throw this.failWith;
    for (const { key, value } of changes) {
      if (value === null) this.data.delete(key);
      else this.data.set(key, value);
    }
  }
}
