import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SLOW_FILES, slowFirst } from './test-sequencer.ts';

const root = join(import.meta.dirname, '..');

describe('the order of the test files', () => {
  it('starts the slow files first, in their order, and keeps every other file once in the given order', () => {
    const given = ['a.test.ts', 'slow-2.test.ts', 'b.test.ts', 'slow-1.test.ts', 'c.test.ts'];
    expect(slowFirst(given, (path) => path, ['slow-1.test.ts', 'slow-2.test.ts', 'gone.test.ts'])).toEqual(['slow-1.test.ts', 'slow-2.test.ts', 'a.test.ts', 'b.test.ts', 'c.test.ts']);
  });

  it('names only test files that exist, each once', () => {
    expect(new Set(SLOW_FILES).size).toBe(SLOW_FILES.length);
    for (const path of SLOW_FILES) {
      expect(path, path).toMatch(/\.test\.tsx?$/);
      expect(existsSync(join(root, path)), path).toBe(true);
    }
  });
});
