/** The soak's arithmetic: the least-squares slope of memory over the last half of the samples. */
export interface MemorySample {
  /** Minutes since the soak started. */
  minute: number;
  rss: number;
  /** Of the RSS: the process's own memory (heap, SQLite's caches, buffers). */
  rssAnon: number;
  /** Of the RSS: pages of mapped files (the read connection maps the database file). */
  rssFile: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/** Least-squares slope of `y` over `x`; 0 with fewer than two points. */
export function slope(points: Array<[number, number]>): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** MiB per minute of RSS and of heap used, over the second half of the samples. */
export function lastHalfSlope(samples: MemorySample[]): { rss: number; rssAnon: number; heapUsed: number } {
  const half = samples.slice(Math.floor(samples.length / 2));
  const MiB = 1024 * 1024;
  return {
    rss: slope(half.map((s) => [s.minute, s.rss / MiB])),
    rssAnon: slope(half.map((s) => [s.minute, s.rssAnon / MiB])),
    heapUsed: slope(half.map((s) => [s.minute, s.heapUsed / MiB])),
  };
}
