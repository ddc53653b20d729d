import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import setup, { STRIPPED_TYPESCRIPT_FOLDER } from './test-temp-folder.ts';

const outer = tmpdir();
afterEach(() => expect(tmpdir()).toBe(outer));

describe('the temp folder check of the unit tests', () => {
  it('fails the run when a test leaves a folder, names it, and removes it', () => {
    const teardown = setup();
    const runFolder = tmpdir();
    expect(runFolder).not.toBe(outer);
    const left = mkdtempSync(join(tmpdir(), 'jql-forgotten-'));
    expect(teardown).toThrow(new RegExp(`left 1 entry in the temp folder \\(${left.split('/').pop()}\\)`));
    expect(() => mkdirSync(join(runFolder, 'x'))).toThrow(/ENOENT/);
  });

  it('passes when the tests removed what they made, and ignores Node\'s compile cache and the children\'s stripped TypeScript', () => {
    const teardown = setup();
    mkdirSync(join(tmpdir(), 'node-compile-cache'));
    mkdirSync(join(tmpdir(), STRIPPED_TYPESCRIPT_FOLDER));
    expect(teardown).not.toThrow();
  });
});
