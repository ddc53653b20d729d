/**
 * Writes one store's documents one batch at a time: changes made while a write is under way are
 * gathered and go out together next, each key with its newest value. Every caller learns whether
 * its change was stored (the promise of `write`), so nothing fails where nobody hears it. A batch
 * that fails is written again with the next change (with anything newer taking its place).
 */
import type { DocumentChange, DocumentStorage } from './document-storage.ts';

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class DocumentWriter {
  private readonly storage: DocumentStorage;
  private pending = new Map<string, string | null>();
  private failed = new Map<string, string | null>();
  private waiters: Waiter[] = [];
  private running: Promise<void> | null = null;

  constructor(storage: DocumentStorage) {
    this.storage = storage;
  }

  /** Resolves once these changes (or newer values of their keys) are stored; rejects with the storage's error. */
  write(changes: readonly DocumentChange[]): Promise<void> {
    for (const [key, value] of this.failed) if (!this.pending.has(key)) this.pending.set(key, value);
    this.failed.clear();
    for (const { key, value } of changes) this.pending.set(key, value);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.running ??= this.drain();
    return done;
  }

  /** Resolves when nothing is being written (tests, and a flush before the page goes away). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.pending.size > 0) {
      const batch = [...this.pending].map(([key, value]) => ({ key, value }));
      const waiters = this.waiters;
      this.pending = new Map();
      this.waiters = [];
      try {
        await this.storage.write(batch);
        for (const w of waiters) w.resolve();
      } catch (err) {
        for (const { key, value } of batch) if (!this.pending.has(key)) this.failed.set(key, value);
        for (const w of waiters) w.reject(err);
      }
    }
    this.running = null;
  }
}
