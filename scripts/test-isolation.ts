/**
 * Which test files vitest runs each in a fresh module graph (vitest.config.ts). The others share
 * their worker's modules from file to file, which saves each file the import of the server and the
 * renderer's code again (the suite took 348 s with isolation for all, 187 s without, in one quiet
 * run each): the code under test keeps no state between files that a test relies on, and the
 * fixtures' temp folders are removed per file (scripts/test-file-cleanup.ts).
 *
 * A file belongs here when sharing cannot work for it: it replaces a module with `vi.mock` (a module
 * another file already imported would not be replaced), it stubs a global (a shared module may keep
 * what it found: the app's parse workers are made once, and a stubbed Worker made a later file's
 * Runs wait forever), or it measures its own process (what earlier files left in a shared one would
 * count). scripts/test-isolation.test.ts keeps every file that
 * mocks a module, stubs a global or reads its own process's memory on this list.
 */
export const ISOLATED_TEST_FILES: readonly string[] = [
  'src/main/index.test.ts',
  'src/server/auth/login-timing.test.ts',
  'src/server/system/login-outside-gate.test.ts',
  'src/server/hardening/fuzz-post.test.ts',
  'src/renderer/response/describe-in-worker.test.ts',
];

/** What in a test file's text makes it need a module graph and a process of its own. */
export const NEEDS_ISOLATION = /\bvi\.(?:mock|doMock|unmock|doUnmock|stubGlobal|stubEnv)\(|process\.memoryUsage\(/;
