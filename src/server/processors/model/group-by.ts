/**
 * Grouped retrieves (docs/protocol.md "`__meta__` keys" `groupBy`): one row per group holding the grouped paths, `count`
 * and the named aggregates; `filtered` is the number of groups.
 */
import type { JsonObject } from '../../../shared/protocol.ts';
import type { ProcessorOutput, RequestContext, Scopes } from '../../context.ts';
import { ErrorList, fail, invalidRequest } from '../../errors.ts';
import { JoinSet } from '../../query/joins.ts';
import type { ParsedMeta } from '../../query/meta.ts';
import { resolvePath } from '../../query/paths.ts';
import type { ModelReach } from '../../query/reach.ts';
import { fromStored } from '../../workspace/field-codec.ts';
import { compileWhere, type Where } from './where.ts';

const NUMERIC = new Set(['integer', 'number', 'ref']);

/** `reach` gathers the models the grouping touches: the grouped paths and aggregates enter them too. */
export function groupBy(ctx: RequestContext, reach: ModelReach, meta: ParsedMeta, scopes: Scopes, limit: number, offset: number): ProcessorOutput {
  const spec = meta.groupBy as NonNullable<ParsedMeta['groupBy']>;
  const { ws } = ctx.state;
  const model = reach.root;
  const joins = new JoinSet(reach);
  // Filters, grouped paths, aggregates and ordering report all their errors in one answer.
  const errors = new ErrorList();
  const where = errors.check(() => compileWhere(ws, model, { ...meta, scopes }, joins)) as Where;
  const groups = spec.by.flatMap((path, index) => {
    const group = errors.check(() => {
      const errorPath = ['__meta__', 'group_by', index];
      const resolved = resolvePath(ws, model, path, { lookups: false, errorPath });
      return { path, resolved, column: joins.column(resolved, { field: path, path: errorPath }), alias: `g${index}` };
    });
    return group ? [group] : [];
  });
  const names = new Set<string>(['count', ...spec.by]);
  const aggregates = spec.aggregates.flatMap((aggregate, index) => {
    const compiled = errors.check(() => {
      const errorPath = ['__meta__', 'group_by', 'aggregates', aggregate.name];
      if (names.has(aggregate.name)) invalidRequest(`Aggregate name "${aggregate.name}" is already used in the grouped rows`, errorPath);
      names.add(aggregate.name);
      let column = '*';
      if (aggregate.field !== '*') {
        const resolved = resolvePath(ws, model, aggregate.field, { lookups: false, errorPath });
        if ((aggregate.fn === 'sum' || aggregate.fn === 'avg') && !NUMERIC.has(resolved.field.type)) {
          invalidRequest(`${aggregate.fn} needs a numeric field; "${aggregate.field}" is ${resolved.field.type}`, errorPath);
        }
        column = joins.column(resolved, { field: aggregate.field, path: errorPath });
      } else if (aggregate.fn !== 'count') {
        invalidRequest(`Only count takes "*"`, errorPath);
      }
      return { name: aggregate.name, sql: `${aggregate.fn}(${column})`, alias: `a${index}` };
    });
    return compiled ? [compiled] : [];
  });
  const order = errors.check(() => groupOrdering(meta.ordering, groups, aggregates)) as string;
  // Past this line every check above has passed.
  errors.throwIfAny();
  const groupSql = groups.map((group) => group.column).join(', ');
  const select = [...groups.map((g) => `${g.column} AS ${g.alias}`), 'count(*) AS c', ...aggregates.map((a) => `${a.sql} AS ${a.alias}`)].join(', ');
  const from = joins.from();
  const params = [...from.params, ...where.params];
  const rows = ctx.sql.all(`SELECT ${select} ${from.sql} ${where.sql} GROUP BY ${groupSql} ${order} LIMIT ? OFFSET ?`, [...params, limit, offset]);
  const filtered = ctx.sql.get(`SELECT count(*) AS n FROM (SELECT 1 ${from.sql} ${where.sql} GROUP BY ${groupSql})`, params)?.n as number;
  const payload = rows.map((row) => {
    const record: JsonObject = {};
    for (const group of groups) record[group.path] = fromStored(group.resolved.field.type, row[group.alias]);
    record.count = row.c as number;
    for (const aggregate of aggregates) record[aggregate.name] = (row[aggregate.alias] as number | null) ?? null;
    return record;
  });
  return { payload, extras: { filtered, display: payload.length } };
}

function groupOrdering(
  ordering: string[] | undefined,
  groups: Array<{ path: string; alias: string }>,
  aggregates: Array<{ name: string; alias: string }>,
): string {
  if (!ordering) return `ORDER BY ${groups.map((g) => `${g.alias} ASC`).join(', ')}`;
  const errors = new ErrorList();
  const terms = ordering.map((entry, index) => {
    const descending = entry.startsWith('-');
    const name = descending ? entry.slice(1) : entry;
    const alias =
      name === 'count' ? 'c' : (groups.find((g) => g.path === name)?.alias ?? aggregates.find((a) => a.name === name)?.alias);
    if (!alias) {
      errors.check(() => fail('unknown_field', `A grouped retrieve orders by grouped fields, count or aggregate names; "${name}" is none of them`, { field: name, path: ['ordering', index] }));
    }
    return `${alias} ${descending ? 'DESC' : 'ASC'}`;
  });
  errors.throwIfAny();
  // Groups that tie on the ordering (the same count) are then ordered by their keys, as records are by
  // id, so that pages of groups are stable.
  const used = new Set(terms.map((term) => term.split(' ')[0]));
  for (const group of groups) if (!used.has(group.alias)) terms.push(`${group.alias} ASC`);
  return `ORDER BY ${terms.join(', ')}`;
}
