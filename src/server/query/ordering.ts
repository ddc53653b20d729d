/**
 * Compiles `ordering` (docs/protocol.md "`__meta__` keys"): paths with `-` for descending, then the model's default
 * ordering when none is given, then `id` ascending so that pages are stable. SQLite already puts
 * NULLs first ascending and last descending, and compares strings by code point (BINARY).
 */
import type { ModelDef, Workspace } from '../workspace/types.ts';
import type { JoinSet } from './joins.ts';
import { ErrorList } from '../errors.ts';
import { resolvePath } from './paths.ts';

/** The terms of an ORDER BY (without the keywords): also a window's order (nested reverse relations). */
export function orderingTerms(ws: Workspace, model: ModelDef, ordering: string[] | undefined, joins: JoinSet): string {
  const entries = ordering ?? model.ordering;
  const terms: string[] = [];
  let hasId = false;
  // Every unknown path is reported, each with its index.
  const errors = new ErrorList();
  entries.forEach((entry, index) => {
    errors.check(() => {
      const descending = entry.startsWith('-');
      const path = descending ? entry.slice(1) : entry;
      const errorPath = ['ordering', index];
      const resolved = resolvePath(ws, model, path, { lookups: false, errorPath });
      if (resolved.hops.length === 0 && resolved.field.name === 'id') hasId = true;
      terms.push(`${joins.column(resolved, { field: path, path: errorPath })} ${descending ? 'DESC' : 'ASC'}`);
    });
  });
  errors.throwIfAny();
  if (!hasId) terms.push('t0."id" ASC');
  return terms.join(', ');
}

export function compileOrdering(ws: Workspace, model: ModelDef, ordering: string[] | undefined, joins: JoinSet): string {
  return `ORDER BY ${orderingTerms(ws, model, ordering, joins)}`;
}
