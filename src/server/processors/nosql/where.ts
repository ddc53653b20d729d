// The WHERE clause of a collection read or write: the collection, then filter AND NOT exclude AND
// search AND row scope. As with models, a document whose value is NULL (or missing) never matches an
// exclude entry, so it stays.
import type { JsonValue } from '../../../shared/protocol.ts';
import type { Scopes } from '../../context.ts';
import type { SqlParam } from '../../db/sql-session.ts';
import { ErrorList } from '../../errors.ts';
import { textMatch } from '../../query/text-match.ts';
import { compileConditions, type Conditions } from './conditions.ts';

export interface WhereInput {
  filter?: Record<string, JsonValue>;
  exclude?: Record<string, JsonValue>;
  uniqueObject?: Record<string, JsonValue>;
  search?: string;
  scopes: Scopes;
}

export interface Where {
  sql: string;
  params: SqlParam[];
}

export function compileWhere(collection: string, input: WhereInput): Where {
  const parts = ['d.collection = ?'];
  const params: SqlParam[] = [collection];
  const add = (conditions: Conditions, wrap: (sql: string) => string): void => {
    if (conditions.sql.length === 0) return;
    parts.push(wrap(conditions.sql.join(' AND ')));
    params.push(...conditions.params);
  };
  // uniqueObject, filter, exclude and search each report all their errors, and together too.
  const errors = new ErrorList();
  const { uniqueObject, filter, exclude, search } = input;
  if (uniqueObject) errors.check(() => add(compileConditions(uniqueObject, 'unique_object'), (sql) => sql));
  if (filter) errors.check(() => add(compileConditions(filter, 'filter'), (sql) => sql));
  if (exclude) {
    const entries = Object.fromEntries(Object.entries(exclude).filter(([, value]) => value !== null));
    errors.check(() => add(compileConditions(entries, 'exclude'), (sql) => `NOT IFNULL((${sql}), 0)`));
  }
  if (search) {
    errors.check(() => {
      // Every string value at any depth of the document; keys and the timestamps are not searched.
      const local: SqlParam[] = [];
      parts.push(`EXISTS (SELECT 1 FROM json_tree(d.body) AS t WHERE t.type = 'text' AND ${textMatch('t.value', 'icontains', search, local)})`);
      params.push(...local);
    });
  }
  errors.throwIfAny();
  if (input.scopes) {
    // Union of the caller's grants: a document is reachable when it matches any one scope.
    const alternatives = input.scopes.map((scope) => {
      const conditions = compileConditions(scope, 'scope');
      params.push(...conditions.params);
      return conditions.sql.length === 0 ? '1' : `IFNULL((${conditions.sql.join(' AND ')}), 0)`;
    });
    parts.push(alternatives.length === 0 ? '0' : `(${alternatives.join(' OR ')})`);
  }
  return { sql: `WHERE ${parts.join(' AND ')}`, params };
}
