/**
 * The FROM clause of a model query: the root table as `t0` plus one LEFT JOIN per distinct reference
 * path used by filters, exclude, ordering, grouping or aggregates. References are many-to-one, so
 * joins never multiply rows.
 *
 * Every clause that names a path comes here for its column, so this is where a path's hops are
 * checked (docs/protocol.md "Field selection"): each model a hop enters is entered through the query's ModelReach (401
 * or 403 when the caller may not retrieve it) and joins only the rows inside the caller's row scope
 * of that model; a referenced row outside it reads as a missing reference (NULL), as it does in a
 * nested selection.
 */
import type { SqlParam } from '../db/sql-session.ts';
import type { ModelDef } from '../workspace/types.ts';
import { quote, type ColumnSource, type ResolvedPath } from './paths.ts';
import type { ModelReach, PathSite } from './reach.ts';
import { compileScopes } from './scope.ts';

export interface FromClause {
  sql: string;
  params: SqlParam[];
}

/** `FROM <table> AS t0`: a read of one model's own columns. */
export function rootFrom(model: ModelDef): string {
  return `FROM ${quote(model.table)} AS t0`;
}

export class JoinSet implements ColumnSource {
  readonly reach: ModelReach;
  private readonly aliases = new Map<string, string>();
  private readonly clauses: string[] = [];
  private readonly params: SqlParam[] = [];

  constructor(reach: ModelReach) {
    this.reach = reach;
  }

  get root(): ModelDef {
    return this.reach.root;
  }

  /** The SQL expression for a resolved path's column, adding (and checking) the joins it needs. */
  column(resolved: ResolvedPath, site: PathSite): string {
    return `${this.alias(resolved, site)}.${quote(resolved.field.column)}`;
  }

  private alias(resolved: ResolvedPath, site: PathSite): string {
    let alias = 't0';
    let key = '';
    for (const hop of resolved.hops) {
      key = key === '' ? hop.field.name : `${key}.${hop.field.name}`;
      let next = this.aliases.get(key);
      if (!next) {
        const scopes = this.reach.enter(hop.target, key, site);
        next = `t${this.aliases.size + 1}`;
        this.aliases.set(key, next);
        let on = `${next}."id" = ${alias}.${quote(hop.field.column)}`;
        const inScope = compileScopes(this.reach.reader.state.ws, hop.target, scopes, ownColumnsOf(next));
        if (inScope) {
          on = `${on} AND ${inScope.sql}`;
          this.params.push(...inScope.params);
        }
        this.clauses.push(`LEFT JOIN ${quote(hop.target.table)} AS ${next} ON ${on}`);
      }
      alias = next;
    }
    return alias;
  }

  /** `FROM ... [LEFT JOIN ...]` as it stands now, with the parameters of its join conditions. */
  from(): FromClause {
    const base = rootFrom(this.root);
    if (this.clauses.length === 0) return { sql: base, params: [] };
    return { sql: `${base} ${this.clauses.join(' ')}`, params: [...this.params] };
  }
}

/** A joined model's own columns under its alias: row scopes name only fields of their own model. */
function ownColumnsOf(alias: string): ColumnSource {
  return {
    column(resolved) {
      if (resolved.hops.length > 0) throw new Error(`A row scope names "${resolved.path}", which is not a field of its own model`);
      return `${alias}.${quote(resolved.field.column)}`;
    },
  };
}
