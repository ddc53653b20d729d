/**
 * A digest of the resolved workspace, for `/healthz`: the console compares it between polls and
 * fetches `describe` again when it changes (docs/protocol.md "Endpoints"). It is taken from what the
 * workspace means (models, fields, permissions, limits, modules), so a save that only reformats the
 * file keeps it; the file's path is left out, so it says nothing about the machine.
 */
import { createHash } from 'node:crypto';
import type { Workspace } from './types.ts';

export function workspaceDigest(ws: Workspace): string {
  const text = JSON.stringify(ws, (key, value: unknown) => {
    if (key === 'file') return undefined;
    // Maps keep their insertion order, which follows the file: entries keep it in the digest too.
    if (value instanceof Map) return [...value.entries()];
    return value;
  });
  return createHash('sha256').update(text).digest('hex');
}
