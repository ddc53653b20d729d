/**
 * vitest setupFiles, run before each test file (with or without isolation): the file's first
 * afterAll, so (vitest runs afterAll hooks in reverse) its last. The servers and databases a file
 * closes in its own hooks are closed before the temp folders its fixtures made are removed.
 */
import { afterAll } from 'vitest';
import { removeTempFolders } from '../src/server/testing/temp-folders.ts';

afterAll(removeTempFolders);
