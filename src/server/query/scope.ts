/**
 * The rows a caller's row scopes reach (docs/protocol.md "Permissions and row scopes"), as one SQL condition: a row is reachable
 * when it matches any one of the scopes (the union of the caller's grants). The same condition bounds
 * the root rows of a query (processors/model/where.ts) and every model a path joins (joins.ts), so a
 * reference never shows a row its own model would hide.
 */
import type { Scopes } from '../context.ts';
import type { SqlParam } from '../db/sql-session.ts';
import type { ModelDef, Workspace } from '../workspace/types.ts';
import { compileConditions } from './filter.ts';
import type { ColumnSource } from './paths.ts';

/** null when `scopes` is null (every row); `0` when no scope is left. */
export function compileScopes(ws: Workspace, model: ModelDef, scopes: Scopes, columns: ColumnSource): { sql: string; params: SqlParam[] } | null {
  if (scopes === null) return null;
  if (scopes.length === 0) return { sql: '0', params: [] };
  const params: SqlParam[] = [];
  const alternatives = scopes.map((scope) => {
    const conditions = compileConditions(ws, model, scope, columns, 'scope');
    params.push(...conditions.params);
    // IFNULL: a NULL comparison is "no match", also under NOT and OR.
    return conditions.sql.length === 0 ? '1' : `IFNULL((${conditions.sql.join(' AND ')}), 0)`;
  });
  return { sql: `(${alternatives.join(' OR ')})`, params };
}
