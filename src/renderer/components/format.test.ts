import { describe, expect, it } from 'vitest';
import { formatAgo, formatBytes, formatCount, formatMs } from './format.ts';

describe('format', () => {
  it('formats sizes, times and counts', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(12_700)).toBe('12.4 kB');
    expect(formatBytes(40_000_000)).toBe('38.1 MB');
    expect(formatMs(0.42)).toBe('0.42 ms');
    expect(formatMs(34.4)).toBe('34 ms');
    expect(formatMs(2500)).toBe('2.50 s');
    expect(formatAgo(0, 30_000)).toBe('just now');
    expect(formatAgo(0, 5 * 60_000)).toBe('5 min ago');
    expect(formatCount(100000)).toBe('100,000');
  });
});
