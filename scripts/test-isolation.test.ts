import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED_TEST_FILES, NEEDS_ISOLATION } from './test-isolation.ts';

const root = join(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.test\.tsx?$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

describe('the test files vitest runs in isolation', () => {
  const all = [...testFiles('src'), ...testFiles('scripts')];

  it('include every file that mocks a module, stubs a global or measures its own process', () => {
    const needing = all.filter((file) => file !== 'scripts/test-isolation.test.ts' && NEEDS_ISOLATION.test(readFileSync(join(root, file), 'utf8')));
    expect(needing.length).toBeGreaterThan(0);
    expect(needing.filter((file) => !ISOLATED_TEST_FILES.includes(file))).toEqual([]);
  });

  it('name only files that exist', () => {
    expect(ISOLATED_TEST_FILES.filter((file) => !all.includes(file))).toEqual([]);
  });
});
