/**
 * Events per second over the last minute, by event kind: one bucket per second in a ring of 60.
 * Counted by arrival time on this machine, so a remote server's clock does not matter; a burst of
 * replayed events after a reconnect shows as the burst it is.
 */
export interface RateBucket {
  /** Start of the second, in ms since the epoch. */
  second: number;
  counts: Record<string, number>;
  total: number;
}

export interface RateSeries {
  buckets: RateBucket[];
  /** Kinds seen in the window, created/updated/deleted first. */
  kinds: string[];
  maxTotal: number;
  /** Events in the window divided by its seconds. */
  averagePerSecond: number;
}

const KIND_ORDER = ['created', 'updated', 'deleted'];

export function orderKinds(kinds: Iterable<string>): string[] {
  return [...new Set(kinds)].sort((a, b) => {
    const ia = KIND_ORDER.indexOf(a);
    const ib = KIND_ORDER.indexOf(b);
    if (ia !== -1 || ib !== -1) return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib);
    return a.localeCompare(b);
  });
}

export class RateCounter {
  readonly windowSeconds: number;
  private slots: Array<{ second: number; counts: Map<string, number> }>;

  constructor(windowSeconds = 60) {
    this.windowSeconds = windowSeconds;
    this.slots = Array.from({ length: windowSeconds }, () => ({ second: -1, counts: new Map<string, number>() }));
  }

  record(kind: string, nowMs: number, count = 1): void {
    const second = Math.floor(nowMs / 1000);
    const slot = this.slots[second % this.windowSeconds]!;
    if (slot.second !== second) {
      slot.second = second;
      slot.counts.clear();
    }
    slot.counts.set(kind, (slot.counts.get(kind) ?? 0) + count);
  }

  clear(): void {
    for (const slot of this.slots) {
      slot.second = -1;
      slot.counts.clear();
    }
  }

  /** The last `windowSeconds` seconds up to and including the current one, oldest first. */
  series(nowMs: number): RateSeries {
    const current = Math.floor(nowMs / 1000);
    const buckets: RateBucket[] = [];
    const kinds = new Set<string>();
    let maxTotal = 0;
    let sum = 0;
    for (let second = current - this.windowSeconds + 1; second <= current; second++) {
      const slot = this.slots[((second % this.windowSeconds) + this.windowSeconds) % this.windowSeconds]!;
      const counts: Record<string, number> = {};
      let total = 0;
      if (slot.second === second) {
        for (const [kind, n] of slot.counts) {
          counts[kind] = n;
          total += n;
          kinds.add(kind);
        }
      }
      maxTotal = Math.max(maxTotal, total);
      sum += total;
      buckets.push({ second: second * 1000, counts, total });
    }
    return { buckets, kinds: orderKinds(kinds), maxTotal, averagePerSecond: sum / this.windowSeconds };
  }
}
