/**
 * The retrieve cache (PROTOCOL.md 2.3 `cache`): entries keyed by caller and normalized query, each
 * remembering the generation of every model it read; a mutation bumps its model's generation, which
 * invalidates every entry that read it (nested models included) without scanning the cache.
 */
import type { CachedResult, ResultCacheLike } from '../context.ts';

export class ResultCache implements ResultCacheLike {
  private readonly entries = new Map<string, CachedResult>();
  private readonly generations = new Map<string, number>();
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get(key: string): CachedResult | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    for (const [model, generation] of entry.generations) {
      if ((this.generations.get(model) ?? 0) !== generation) {
        this.entries.delete(key);
        return undefined;
      }
    }
    return entry;
  }

  set(key: string, models: Iterable<string>, value: Omit<CachedResult, 'generations'>): void {
    const generations = new Map<string, number>();
    for (const model of models) generations.set(model, this.generations.get(model) ?? 0);
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { ...value, extras: { ...value.extras }, generations });
  }

  invalidate(model: string): void {
    this.generations.set(model, (this.generations.get(model) ?? 0) + 1);
  }
}
