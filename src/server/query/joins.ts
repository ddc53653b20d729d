/**
 * The FROM clause of a model query: the root table as `t0` plus one LEFT JOIN per distinct reference
 * path used by filters or ordering. References are many-to-one, so joins never multiply rows.
 */
import type { ModelDef } from '../workspace/types.ts';
import { quote, type ResolvedPath } from './paths.ts';

export class JoinSet {
  private readonly root: ModelDef;
  private readonly aliases = new Map<string, string>();
  private readonly clauses: string[] = [];

  constructor(root: ModelDef) {
    this.root = root;
  }

  /** The SQL expression for a resolved path's column, adding the joins it needs. */
  column(resolved: ResolvedPath): string {
    return `${this.alias(resolved)}.${quote(resolved.field.column)}`;
  }

  alias(resolved: ResolvedPath): string {
    let alias = 't0';
    let key = '';
    for (const hop of resolved.hops) {
      key = key === '' ? hop.field.name : `${key}.${hop.field.name}`;
      let next = this.aliases.get(key);
      if (!next) {
        next = `t${this.aliases.size + 1}`;
        this.aliases.set(key, next);
        this.clauses.push(`LEFT JOIN ${quote(hop.target.table)} AS ${next} ON ${next}."id" = ${alias}.${quote(hop.field.column)}`);
      }
      alias = next;
    }
    return alias;
  }

  /** `FROM ... [LEFT JOIN ...]` as it stands now. */
  from(): string {
    const base = `FROM ${quote(this.root.table)} AS t0`;
    return this.clauses.length === 0 ? base : `${base} ${this.clauses.join(' ')}`;
  }
}
