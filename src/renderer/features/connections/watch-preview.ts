/**
 * The words of the Apply confirmation for a previewed workspace (docs/workspace.md "Changing a
 * workspace while it runs"): it names every change that stops serving stored values, with its rows,
 * so nobody applies a loss they were not told of. Framework-free, for unit tests.
 */
import type { WatchChange } from '../../response/schema/account-schema.ts';

export function applyConfirmation(changes: readonly WatchChange[], connectionName: string): string {
  const lost = changes.filter((c) => c.kind === 'lossy');
  const lines = lost.map((c) => `• ${c.target}: ${c.rows === null ? 'its stored values' : `${c.rows} row${c.rows === 1 ? '' : 's'}`}`);
  const head = `Apply the saved workspace file to "${connectionName}"?`;
  if (lines.length === 0) return head;
  return [head, 'These stored values will no longer be served (they stay on disk):', ...lines].join('\n');
}

export const KIND_LABEL: Record<WatchChange['kind'], string> = { additive: 'adds', lossy: 'loses', refused: 'refused' };
