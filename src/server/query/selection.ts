/**
 * Field selection (docs/protocol.md "Field selection"): turns a retrieve's data keys (or a mutation's `return`) into a
 * tree of what to read at each level: columns, nested references, reverse relations. A Selection is
 * never changed after it is built (the full selection of a model is shared between requests).
 */
import type { JsonValue } from '../../shared/protocol.ts';
import { ErrorList, fail, invalidRequest, type ErrorPath } from '../errors.ts';
import type { FieldDef, ModelDef, RelationDef, Workspace } from '../workspace/types.ts';
import { isPlainObject } from './normalize.ts';
import { fieldOf, ID_FIELD, isReadable, targetOf } from './paths.ts';
import type { ModelReach } from './reach.ts';
import { memosOn } from '../workspace/memos.ts';

export interface Selection {
  model: ModelDef;
  /** Columns to read, `id` first. A reference here is read as its id. */
  columns: FieldDef[];
  refs: Array<{ field: FieldDef; selection: Selection }>;
  reverse: Array<{ relation: RelationDef; via: FieldDef; selection: Selection }>;
}

/** `keys` null or empty: every readable field. `omit`: fields removed by `exclude: {field: null}`. */
export function buildSelection(
  ws: Workspace,
  model: ModelDef,
  keys: Record<string, JsonValue> | null,
  errorPath: ErrorPath,
  omit: ReadonlySet<string> = new Set(),
): Selection {
  const entries = keys && Object.keys(keys).length > 0 ? Object.entries(keys) : null;
  if (!entries && omit.size === 0 && memosOn(ws)) {
    // The most common selection (every readable field) is the same on every request: built once.
    let all = fullSelections.get(model);
    if (!all) fullSelections.set(model, (all = fullSelection(model, omit)));
    return all;
  }
  if (!entries) return fullSelection(model, omit);
  const selection: Selection = { model, columns: [ID_FIELD], refs: [], reverse: [] };
  // Every unknown or ill-typed key of the selection is reported, each with its path.
  const errors = new ErrorList();
  for (const [name, value] of entries) {
    if (omit.has(name) || name === 'id') continue;
    errors.check(() => addKey(ws, selection, name, value, [...errorPath, name]));
  }
  errors.throwIfAny();
  return selection;
}

function addKey(ws: Workspace, selection: Selection, name: string, value: JsonValue, path: ErrorPath): void {
  const { model } = selection;
  const field = fieldOf(model, name);
  if (field && isReadable(field)) {
    if (value !== null && (field.type !== 'ref' || !isPlainObject(value))) {
      invalidRequest(`"${name}" takes null${field.type === 'ref' ? ' or a nested selection' : ''}`, path);
    }
    const nested = value === null ? null : buildSelection(ws, targetOf(ws, field), value as Record<string, JsonValue>, path);
    selection.columns.push(field);
    if (nested) selection.refs.push({ field, selection: nested });
    return;
  }
  const relation = model.relations.get(name);
  if (relation) {
    if (value !== null && !isPlainObject(value)) invalidRequest(`"${name}" takes null or a nested selection`, path);
    const target = ws.models.get(relation.many) as ModelDef;
    const via = target.fields.get(relation.via) as FieldDef;
    const nested = buildSelection(ws, target, (value as Record<string, JsonValue> | null) ?? null, path);
    selection.reverse.push({ relation, via, selection: nested });
    return;
  }
  fail('unknown_field', `Unknown field "${name}" on ${model.key}`, { field: name, path });
}

/** Selections are read-only once built, so the full one of each model is shared. */
const fullSelections = new WeakMap<ModelDef, Selection>();

function fullSelection(model: ModelDef, omit: ReadonlySet<string>): Selection {
  const selection: Selection = { model, columns: [ID_FIELD], refs: [], reverse: [] };
  for (const field of model.fields.values()) if (isReadable(field) && !omit.has(field.name)) selection.columns.push(field);
  return selection;
}

/**
 * Enters every model a selection reads into the query's reach: a nested model the caller may not
 * retrieve is 401/403 with the selection's path before anything runs (docs/protocol.md "Field selection"). Rows outside
 * the caller's row scope are left out when the nested level is read (processors/model/records.ts).
 */
export function enterSelection(reach: ModelReach, selection: Selection, path: ErrorPath = [], through = ''): void {
  const nested = [
    ...selection.refs.map((ref) => ({ name: ref.field.name, selection: ref.selection })),
    ...selection.reverse.map((rev) => ({ name: rev.relation.name, selection: rev.selection })),
  ];
  for (const { name, selection: inner } of nested) {
    const where = [...path, name];
    const dotted = through === '' ? name : `${through}.${name}`;
    reach.enter(inner.model, dotted, { field: name, path: where });
    enterSelection(reach, inner, where, dotted);
  }
}
