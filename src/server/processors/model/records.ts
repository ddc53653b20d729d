/**
 * Reads records for a selection: the caller's page query gives the top-level rows, then each nested
 * reference and reverse relation costs exactly one statement per level, whatever the number of rows
 * (PROTOCOL.md 2.2).
 */
import type { JsonObject, JsonValue } from '../../../shared/protocol.ts';
import type { RequestContext } from '../../context.ts';
import type { Row, SqlParam } from '../../db/sql-session.ts';
import { JoinSet } from '../../query/joins.ts';
import { quote } from '../../query/paths.ts';
import { compileOrdering } from '../../query/ordering.ts';
import { ModelReach, readGrant } from '../../query/reach.ts';
import type { Selection } from '../../query/selection.ts';
import { fromStored } from '../../workspace/field-codec.ts';
import type { FieldDef } from '../../workspace/types.ts';
import { compileWhere } from './where.ts';

const selectLists = new WeakMap<Selection, string>();

export function selectList(selection: Selection, alias = 't0'): string {
  if (alias !== 't0') return selection.columns.map((field) => `${alias}.${quote(field.column)}`).join(', ');
  // Selections are immutable, so a shared one (the full selection) builds its column list once.
  let list = selectLists.get(selection);
  if (list === undefined) selectLists.set(selection, (list = selection.columns.map((field) => `t0.${quote(field.column)}`).join(', ')));
  return list;
}

const plainSelections = new WeakMap<Selection, boolean>();

/** Whether a row of `selectList(selection)` already is its record: same keys, no value to convert. */
function rowsAreRecords(selection: Selection): boolean {
  let plain = plainSelections.get(selection);
  if (plain === undefined) {
    plain = selection.columns.every((field) => field.name === field.column && field.type !== 'boolean' && field.type !== 'json');
    plainSelections.set(selection, plain);
  }
  return plain;
}

/**
 * Serializes rows of `selection.model` and fills their nested selections. With `ownRows` (rows read
 * by the caller for this alone, holding exactly the selected columns) a row that needs no conversion
 * becomes its record as it is, instead of being copied key by key.
 */
export function toRecords(ctx: RequestContext, selection: Selection, rows: Row[], ownRows = false): JsonObject[] {
  const records =
    ownRows && rowsAreRecords(selection)
      ? (rows as JsonObject[])
      : rows.map((row) => {
          const record: JsonObject = {};
          for (const field of selection.columns) record[field.name] = fromStored(field.type, row[field.column]);
          return record;
        });
  if (records.length === 0) return records;
  for (const field of selection.columns) if (field.type === 'file') fillFiles(ctx, field, records);
  for (const { field, selection: nested } of selection.refs) fillReference(ctx, field, nested, records);
  for (const relation of selection.reverse) fillReverse(ctx, relation, records);
  return records;
}

function fillFiles(ctx: RequestContext, field: FieldDef, records: JsonObject[]): void {
  const ids = unique(records.map((record) => record[field.name]));
  const files = ids.length === 0 ? new Map() : ctx.state.files.describe(ctx.sql, ids as string[], field);
  for (const record of records) {
    const id = record[field.name];
    record[field.name] = typeof id === 'string' ? ((files.get(id) as JsonValue | undefined) ?? null) : null;
  }
}

function fillReference(ctx: RequestContext, field: FieldDef, nested: Selection, records: JsonObject[]): void {
  const ids = unique(records.map((record) => record[field.name]));
  const byId = new Map<number, JsonObject>();
  if (ids.length > 0) {
    for (const record of readNested(ctx, nested, 'id', ids).records) byId.set(record.id as number, record);
  }
  for (const record of records) {
    const id = record[field.name];
    // A referenced row outside the caller's row scope reads as absent.
    record[field.name] = typeof id === 'number' ? (byId.get(id) ?? null) : null;
  }
}

function fillReverse(ctx: RequestContext, relation: Selection['reverse'][number], records: JsonObject[]): void {
  const ids = records.map((record) => record.id as number);
  const groups = new Map<number, JsonObject[]>();
  const { rows, records: children } = readNested(ctx, relation.selection, relation.via.column, ids, relation.via.column);
  children.forEach((child, index) => {
    // The parent id comes from the raw row: the child's own `via` may have become a nested record.
    const parent = (rows[index] as Row).__parent;
    if (typeof parent !== 'number') return;
    let group = groups.get(parent);
    if (!group) groups.set(parent, (group = []));
    group.push(child);
  });
  for (const record of records) record[relation.relation.name] = groups.get(record.id as number) ?? [];
}

/** One statement for every row of a nested level, within the caller's access to that model. */
function readNested(
  ctx: RequestContext,
  selection: Selection,
  keyColumn: string,
  keys: JsonValue[],
  parentColumn?: string,
): { rows: Row[]; records: JsonObject[] } {
  const { ws } = ctx.state;
  // enterSelection() refused a model the caller may not read before anything ran; this is the same
  // rule, read again here for the rows of it the caller may see.
  const grant = readGrant(ctx, selection.model);
  if (!grant.allowed) return { rows: [], records: [] };
  const joins = new JoinSet(new ModelReach(ctx, selection.model, grant.scopes));
  const where = compileWhere(ws, selection.model, { scopes: grant.scopes }, joins);
  const keyCondition = `t0.${quote(keyColumn)} IN (SELECT value FROM json_each(?))`;
  const whereSql = where.sql === '' ? `WHERE ${keyCondition}` : `${where.sql} AND ${keyCondition}`;
  const order = compileOrdering(ws, selection.model, undefined, joins);
  const from = joins.from();
  const params: SqlParam[] = [...from.params, ...where.params, JSON.stringify(keys)];
  const parent = parentColumn ? `, t0.${quote(parentColumn)} AS "__parent"` : '';
  const rows = ctx.sql.all(`SELECT ${selectList(selection)}${parent} ${from.sql} ${whereSql} ${order}`, params);
  // Rows with a parent column are not records as they are; and their parent ids are read afterwards.
  return { rows, records: toRecords(ctx, selection, rows, !parentColumn) };
}

function unique(values: JsonValue[]): JsonValue[] {
  return [...new Set(values.filter((value) => value !== null && value !== undefined))];
}
