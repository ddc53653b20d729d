/**
 * Compiles `ordering` (PROTOCOL.md 2.3): paths with `-` for descending, then the model's default
 * ordering when none is given, then `id` ascending so that pages are stable. SQLite already puts
 * NULLs first ascending and last descending, and compares strings by code point (BINARY).
 */
import type { ModelDef, Workspace } from '../workspace/types.ts';
import type { JoinSet } from './joins.ts';
import { resolvePath } from './paths.ts';

export function compileOrdering(ws: Workspace, model: ModelDef, ordering: string[] | undefined, joins: JoinSet): string {
  const entries = ordering ?? model.ordering;
  const terms: string[] = [];
  let hasId = false;
  entries.forEach((entry, index) => {
    const descending = entry.startsWith('-');
    const path = descending ? entry.slice(1) : entry;
    const errorPath = ['ordering', index];
    const resolved = resolvePath(ws, model, path, { lookups: false, errorPath });
    if (resolved.hops.length === 0 && resolved.field.name === 'id') hasId = true;
    terms.push(`${joins.column(resolved, { field: path, path: errorPath })} ${descending ? 'DESC' : 'ASC'}`);
  });
  if (!hasId) terms.push('t0."id" ASC');
  return `ORDER BY ${terms.join(', ')}`;
}
