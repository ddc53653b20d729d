// Compiles `ordering` on document paths (docs/protocol.md "`__meta__` keys"): `-` for descending, then `id` ascending so
// pages are stable; the default is `id`. Paths are bound parameters. SQLite puts NULLs (missing keys)
// first ascending and last descending, numbers before strings, and compares strings by code point.
import type { SqlParam } from '../../db/sql-session.ts';
import { targetOf } from './paths.ts';

export function compileOrdering(ordering: string[] | undefined, params: SqlParam[]): string {
  const terms: string[] = [];
  let hasId = false;
  (ordering ?? ['id']).forEach((entry, index) => {
    const descending = entry.startsWith('-');
    const target = targetOf(descending ? entry.slice(1) : entry, ['ordering', index]);
    const direction = descending ? 'DESC' : 'ASC';
    if (target.kind === 'column') {
      if (target.column === 'id') hasId = true;
      terms.push(`d."${target.column}" ${direction}`);
    } else {
      params.push(target.jsonPath);
      terms.push(`json_extract(d.body, ?) ${direction}`);
    }
  });
  if (!hasId) terms.push('d."id" ASC');
  return `ORDER BY ${terms.join(', ')}`;
}
