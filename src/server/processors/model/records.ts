/**
 * Reads records for a selection: the caller's page query gives the top-level rows, then each nested
 * reference and reverse relation costs exactly one statement per level, whatever the number of rows
 * (docs/protocol.md "Field selection").
 */
import type { JsonObject, JsonValue } from '../../../shared/protocol.ts';
import type { RequestContext } from '../../context.ts';
import type { Row, SqlParam } from '../../db/sql-session.ts';
import { JoinSet } from '../../query/joins.ts';
import { quote } from '../../query/paths.ts';
import { orderingTerms } from '../../query/ordering.ts';
import { ModelReach, readGrant } from '../../query/reach.ts';
import type { Selection } from '../../query/selection.ts';
import { serializeAnswer, StoredJson } from '../../query/stored-json.ts';
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
export function toRecords(ctx: RequestContext, selection: Selection, rows: Row[], ownRows = false, cuts?: NestedCuts): JsonObject[] {
  const records =
    ownRows && rowsAreRecords(selection)
      ? (rows as JsonObject[])
      : rows.map((row) => {
          const record: JsonObject = {};
          for (const field of selection.columns) record[field.name] = recordValue(ctx, field, row[field.column]);
          return record;
        });
  if (records.length === 0) return records;
  for (const field of selection.columns) if (field.type === 'file') fillFiles(ctx, field, records);
  for (const { field, selection: nested } of selection.refs) fillReference(ctx, field, nested, records, cuts);
  for (const relation of selection.reverse) fillReverse(ctx, selection.model.key, relation, records, cuts);
  return records;
}

/**
 * A stored value as its record holds it. A json value stays its stored text (query/stored-json.ts):
 * nothing on the read path looks inside it, and the answer's serializer writes the text as it is.
 * Without shortcuts it is parsed, as the plain path always did.
 */
function recordValue(ctx: RequestContext, field: FieldDef, stored: unknown): JsonValue {
  if (field.type === 'json' && typeof stored === 'string' && ctx.state.shortcuts) return new StoredJson(stored) as unknown as JsonValue;
  return fromStored(field.type, stored);
}

function fillFiles(ctx: RequestContext, field: FieldDef, records: JsonObject[]): void {
  const ids = unique(records.map((record) => record[field.name]));
  const files = ids.length === 0 ? new Map() : ctx.state.files.describe(ctx.sql, ids as string[], field);
  for (const record of records) {
    const id = record[field.name];
    record[field.name] = typeof id === 'string' ? ((files.get(id) as JsonValue | undefined) ?? null) : null;
  }
}

function fillReference(ctx: RequestContext, field: FieldDef, nested: Selection, records: JsonObject[], cuts?: NestedCuts): void {
  const ids = unique(records.map((record) => record[field.name]));
  const byId = new Map<number, JsonObject>();
  if (ids.length > 0) {
    for (const record of readNested(ctx, nested, 'id', ids, null, cuts).records) byId.set(record.id as number, record);
  }
  // A record many parents reference is read once but sent once per parent: each use after the first
  // costs the answer budget what it weighs sent (issue 29.3b), so a page of 1000 rows that all name one
  // large record is refused while it is read, not after it was written out 1000 times.
  const weights = new Map<number, number>();
  for (const record of records) {
    const id = record[field.name];
    // A referenced row outside the caller's row scope reads as absent.
    // An id past 2^53 is a bigint (src/server/exact-integers.ts), as the key it was read back under.
    const target = typeof id === 'number' || typeof id === 'bigint' ? (byId.get(id as number) ?? null) : null;
    if (target !== null) {
      const weight = weights.get(id as number);
      if (weight === undefined) weights.set(id as number, -1);
      else {
        const bytes = weight >= 0 ? weight : Buffer.byteLength(serializeAnswer(target), 'utf8');
        weights.set(id as number, bytes);
        ctx.sql.spend(bytes);
      }
    }
    record[field.name] = target;
  }
}

/**
 * Which reverse relations left records out (`limits.maxNested`), for the answer's notices:
 * `<model>.<relation>` -> the parent records that hold more than the window.
 */
export type NestedCuts = Map<string, { relation: Selection['reverse'][number]; parents: Set<number> }>;

/**
 * A reverse relation lists at most `limits.maxNested` records per parent (the first ones in the
 * related model's ordering), so one parent with 50,000 children costs the same as one with 100; a
 * notice says which relation was cut (docs/protocol.md "Errors").
 */
function fillReverse(ctx: RequestContext, parentModel: string, relation: Selection['reverse'][number], records: JsonObject[], cuts?: NestedCuts): void {
  const ids = records.map((record) => record.id as number);
  const groups = new Map<number, JsonObject[]>();
  const window = ctx.state.ws.limits.maxNested;
  const { rows, records: children, cut } = readNested(ctx, relation.selection, relation.via.column, ids, { column: relation.via.column, window }, cuts);
  children.forEach((child, index) => {
    // The parent id comes from the raw row: the child's own `via` may have become a nested record.
    const parent = (rows[index] as Row).__parent;
    if (typeof parent !== 'number') return;
    let group = groups.get(parent);
    if (!group) groups.set(parent, (group = []));
    group.push(child);
  });
  for (const record of records) record[relation.relation.name] = groups.get(record.id as number) ?? [];
  if (cut.size > 0 && cuts) {
    const key = `${parentModel}.${relation.relation.name}`;
    let entry = cuts.get(key);
    if (!entry) cuts.set(key, (entry = { relation, parents: new Set() }));
    for (const parent of cut) entry.parents.add(parent);
  }
}

/** One notice per cut relation: how many parent records hold more than the window. */
export function nestedNotices(cuts: NestedCuts, window: number): string[] {
  return [...cuts].map(([key, { relation, parents }]) => {
    const many = parents.size === 1 ? '1 record holds' : `${parents.size} records hold`;
    return `${key}: ${many} more than ${window} ${relation.selection.model.key} records; each lists its first ${window} (limits.maxNested). Retrieve ${relation.selection.model.key} filtered by ${relation.via.name} to page through the rest.`;
  });
}

/**
 * One statement for every row of a nested level, within the caller's access to that model. With a
 * `parent` column (a reverse relation) each parent gets at most `window` rows: the statement ranks
 * each parent's rows in the model's ordering and keeps one past the window to tell that it was cut.
 */
function readNested(
  ctx: RequestContext,
  selection: Selection,
  keyColumn: string,
  keys: JsonValue[],
  parent: { column: string; window: number } | null,
  cuts?: NestedCuts,
): { rows: Row[]; records: JsonObject[]; cut: Set<number> } {
  const { ws } = ctx.state;
  const cut = new Set<number>();
  // enterSelection() refused a model the caller may not read before anything ran; this is the same
  // rule, read again here for the rows of it the caller may see.
  const grant = readGrant(ctx, selection.model);
  if (!grant.allowed) return { rows: [], records: [], cut };
  const joins = new JoinSet(new ModelReach(ctx, selection.model, grant.scopes));
  const where = compileWhere(ws, selection.model, { scopes: grant.scopes }, joins);
  const keyCondition = `t0.${quote(keyColumn)} IN (SELECT value FROM json_each(?))`;
  const whereSql = where.sql === '' ? `WHERE ${keyCondition}` : `${where.sql} AND ${keyCondition}`;
  const order = orderingTerms(ws, selection.model, undefined, joins);
  const from = joins.from();
  const params: SqlParam[] = [...from.params, ...where.params, JSON.stringify(keys)];
  if (!parent) {
    const rows = ctx.sql.all(`SELECT ${selectList(selection)} ${from.sql} ${whereSql} ORDER BY ${order}`, params);
    return { rows, records: toRecords(ctx, selection, rows, true, cuts), cut };
  }
  const via = `t0.${quote(parent.column)}`;
  const ranked = `SELECT ${selectList(selection)}, ${via} AS "__parent", ROW_NUMBER() OVER (PARTITION BY ${via} ORDER BY ${order}) AS "__rank" ${from.sql} ${whereSql}`;
  const read = ctx.sql.all(`SELECT * FROM (${ranked}) WHERE "__rank" <= ? ORDER BY "__parent", "__rank"`, [...params, parent.window + 1]);
  // Rows with a parent column are not records as they are; the one past the window only marks a cut.
  const rows = read.filter((row) => {
    if ((row.__rank as number) <= parent.window) return true;
    cut.add(row.__parent as number);
    return false;
  });
  return { rows, records: toRecords(ctx, selection, rows, false, cuts), cut };
}

function unique(values: JsonValue[]): JsonValue[] {
  return [...new Set(values.filter((value) => value !== null && value !== undefined))];
}
