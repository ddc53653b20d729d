/**
 * vitest's order of the test files: the files known to take longest start first, then vitest's own
 * order. vitest runs the files it has timings for longest first, but a clean clone (CI) has none and
 * it falls back to the largest files first: a short file that starts several `jql-console` children
 * (docs/workspace.md's commands take 19 s) then starts among the last, and one worker runs it alone
 * while the other has nothing left. Started first, it overlaps the many short files instead.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest files of a full run (longest first), relative to the project's root. A file missing
 * here only loses its head start; scripts/test-sequencer.test.ts keeps every path an existing file.
 */
export const SLOW_FILES: readonly string[] = [
  'scripts/docs-examples/workspace-docs.test.ts',
  'src/server/collections/run-command.test.ts',
  'src/server/collections/run-snapshots.test.ts',
  'src/server/remote/hostile-source.test.ts',
  'src/server/query/shortcuts.property.test.ts',
  'src/server/cli.test.ts',
  'src/server/hardening/memory.test.ts',
  'src/server/cli-help.test.ts',
  'src/server/hardening/joined-permissions.property.test.ts',
  'src/server/http/connection-limits.test.ts',
];

/** `files` with the slow ones first, in SLOW_FILES order, and the rest in their given order. */
export function slowFirst<T>(files: readonly T[], pathOf: (file: T) => string, slow: readonly string[] = SLOW_FILES): T[] {
  const rank = new Map(slow.map((path, index) => [path, index]));
  const rankOf = (file: T) => rank.get(pathOf(file)) ?? slow.length;
  // Array.prototype.sort is stable: files of equal rank keep vitest's order.
  return [...files].sort((a, b) => rankOf(a) - rankOf(b));
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return slowFirst(sorted, (file) => relativePath(file.project.config.root, file.moduleId));
  }
}

function relativePath(root: string, path: string): string {
  const normalized = path.replaceAll('\\', '/');
  const base = root.replaceAll('\\', '/').replace(/\/?$/, '/');
  return normalized.startsWith(base) ? normalized.slice(base.length) : normalized;
}
