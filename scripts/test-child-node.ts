/**
 * vitest setupFiles: every Node process a test starts (mostly `jql-console` itself, dozens of times a
 * run) preloads scripts/test-child-node/stripped-typescript-hook.mjs, which hands it the server's
 * TypeScript already stripped of types from a folder the whole run shares, instead of having each
 * child strip the same ~200 files again. Set in the test worker's environment only: the vitest
 * workers themselves and anything run outside the tests are untouched.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { STRIPPED_TYPESCRIPT_FOLDER } from './test-temp-folder.ts';

const hook = `--import=${pathToFileURL(join(import.meta.dirname, 'test-child-node', 'stripped-typescript-hook.mjs')).href}`;

// tmpdir() is the run's own temp folder here (the globalSetup set TMPDIR before the workers started).
process.env.JQL_TEST_STRIPPED_TS ??= join(tmpdir(), STRIPPED_TYPESCRIPT_FOLDER);
if (!(process.env.NODE_OPTIONS ?? '').includes(hook)) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} ${hook}`.trim();
