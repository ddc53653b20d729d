/**
 * The stacked-bar geometry of the events-per-second chart, computed apart from the SVG so it is
 * tested without a DOM: one bar per second, one segment per event kind, a rounded y-axis maximum.
 */
import type { RateSeries } from './rate-counter.ts';

export interface BarSegment {
  x: number;
  y: number;
  width: number;
  height: number;
  kind: string;
  count: number;
  second: number;
}

export interface ChartGeometry {
  segments: BarSegment[];
  /** The value the top of the plot stands for. */
  yMax: number;
  ticks: Array<{ value: number; y: number }>;
}

/** 1, 2, 5, 10, 20, 50, … at or above `value`. */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

export function chartGeometry(series: RateSeries, width: number, height: number, gap = 1): ChartGeometry {
  const yMax = niceCeiling(series.maxTotal);
  const slot = series.buckets.length > 0 ? width / series.buckets.length : width;
  const barWidth = Math.max(1, slot - gap);
  const scale = height / yMax;
  const segments: BarSegment[] = [];
  series.buckets.forEach((bucket, i) => {
    let top = height;
    for (const kind of series.kinds) {
      const count = bucket.counts[kind] ?? 0;
      if (count === 0) continue;
      const h = count * scale;
      top -= h;
      segments.push({ x: i * slot, y: top, width: barWidth, height: h, kind, count, second: bucket.second });
    }
  });
  const ticks = [0, yMax / 2, yMax].map((value) => ({ value, y: height - value * scale }));
  return { segments, yMax, ticks };
}
