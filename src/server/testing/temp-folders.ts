/**
 * The temp folders a test file made through the fixtures (src/server/testing/fixture.ts), removed
 * when that file ends by the hook scripts/test-file-cleanup.ts registers before each file. Not a
 * module-level hook of the fixture: test files share one module instance where vitest runs them
 * without isolation (vitest.config.ts), so such a hook would be registered by the first file only
 * and every later file's folders would stay.
 */
import { rmSync } from 'node:fs';

const madeByThisFile = new Set<string>();

export function rememberTempFolder(dir: string): void {
  madeByThisFile.add(dir);
}

export function removeTempFolders(): void {
  for (const dir of madeByThisFile) rmSync(dir, { recursive: true, force: true });
  madeByThisFile.clear();
}
