/**
 * Compiles `search` (PROTOCOL.md 2.3): a case-insensitive substring match over the model's search
 * fields, which the workspace resolved to readable string/text fields only.
 */
import type { SqlParam } from '../db/sql-session.ts';
import type { ModelDef } from '../workspace/types.ts';
import { escapeLike } from './filter.ts';
import { quote } from './paths.ts';

export function compileSearch(model: ModelDef, term: string | undefined, params: SqlParam[]): string | null {
  if (term === undefined || term === '' || model.search.length === 0) return term ? '0' : null;
  const pattern = `%${escapeLike(term)}%`;
  const parts = model.search.map((name) => {
    params.push(pattern);
    return `t0.${quote(model.fields.get(name)?.column ?? name)} LIKE ? ESCAPE '\\'`;
  });
  return `(${parts.join(' OR ')})`;
}
