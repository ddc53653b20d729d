import { describe, expect, it } from 'vitest';
import { chartGeometry, niceCeiling } from './rate-chart-geometry.ts';
import { orderKinds, RateCounter } from './rate-counter.ts';

describe('RateCounter', () => {
  it('counts per second and kind over the last minute', () => {
    const c = new RateCounter(60);
    const t0 = 1_000_000_000; // a whole second
    c.record('created', t0);
    c.record('created', t0 + 999);
    c.record('deleted', t0 + 999);
    c.record('updated', t0 + 1000, 3);
    const s = c.series(t0 + 1500);
    expect(s.buckets).toHaveLength(60);
    expect(s.buckets.at(-1)).toEqual({ second: t0 + 1000, counts: { updated: 3 }, total: 3 });
    expect(s.buckets.at(-2)).toEqual({ second: t0, counts: { created: 2, deleted: 1 }, total: 3 });
    expect(s.kinds).toEqual(['created', 'updated', 'deleted']);
    expect(s.maxTotal).toBe(3);
    expect(s.averagePerSecond).toBeCloseTo(6 / 60);
  });

  it('forgets seconds older than the window, even when a slot is reused', () => {
    const c = new RateCounter(60);
    c.record('created', 0);
    expect(c.series(59_999).buckets[0]?.total).toBe(1);
    expect(c.series(60_000).maxTotal).toBe(0);
    c.record('updated', 60_000);
    expect(c.series(60_000).buckets.at(-1)?.counts).toEqual({ updated: 1 });
    c.clear();
    expect(c.series(60_000).maxTotal).toBe(0);
  });

  it('orders kinds with the standard ones first', () => {
    expect(orderKinds(['zeta', 'deleted', 'alpha', 'created'])).toEqual(['created', 'deleted', 'alpha', 'zeta']);
  });
});

describe('chartGeometry', () => {
  it('stacks kinds bottom-up on a nice scale', () => {
    const c = new RateCounter(2);
    c.record('created', 1000, 3);
    c.record('deleted', 1000, 4);
    const g = chartGeometry(c.series(1000), 100, 50, 0);
    expect(g.yMax).toBe(10);
    expect(g.segments).toEqual([
      { x: 50, y: 35, width: 50, height: 15, kind: 'created', count: 3, second: 1000 },
      { x: 50, y: 15, width: 50, height: 20, kind: 'deleted', count: 4, second: 1000 },
    ]);
    expect(g.ticks).toEqual([{ value: 0, y: 50 }, { value: 5, y: 25 }, { value: 10, y: 0 }]);
  });

  it('rounds the axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 11, 20, 21, 499, 501].map(niceCeiling)).toEqual([1, 1, 5, 10, 20, 20, 50, 500, 1000]);
  });
});
