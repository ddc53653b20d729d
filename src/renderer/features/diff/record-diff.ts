/**
 * The difference between two payloads of the same query. Arrays of records are matched by `id`
 * (records without one fall back to matching by position) into added, removed and changed, each
 * change listed field by field; nested objects are compared down to their leaf paths
 * (`assignee.username`), arrays as whole values. A single record or a plain value is compared as
 * one. Key order never counts as a difference.
 */
import type { JsonObject, JsonValue } from '../../../shared/protocol.ts';

export interface FieldChange {
  /** Dotted path inside the record: `title`, `assignee.username`. */
  path: string;
  /** `undefined`: the field is absent on that side. */
  left: JsonValue | undefined;
  right: JsonValue | undefined;
}

export interface RecordChange {
  /** The record's id (or position) as shown: `5`, `"m1"`, `#3`. */
  key: string;
  left: JsonValue;
  right: JsonValue;
  fields: FieldChange[];
}

export interface KeyedRecord {
  key: string;
  record: JsonValue;
}

export interface PayloadDiff {
  mode: 'by-id' | 'by-position' | 'single' | 'value';
  added: KeyedRecord[];
  removed: KeyedRecord[];
  changed: RecordChange[];
  unchanged: number;
  /** Both sides hold the same records in a different order. */
  orderDiffers: boolean;
  notices: string[];
  same: boolean;
}

const isObj = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (isObj(a)) {
    if (!isObj(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** Field-by-field changes between two records; nested objects are walked to `maxDepth`. */
export function fieldChanges(left: JsonValue | undefined, right: JsonValue | undefined, prefix = '', maxDepth = 4): FieldChange[] {
  if (jsonEqual(left, right)) return [];
  if (!isObj(left) || !isObj(right) || maxDepth === 0) return [{ path: prefix || '(value)', left, right }];
  const keys = [...Object.keys(left), ...Object.keys(right).filter((k) => !Object.hasOwn(left, k))];
  const out: FieldChange[] = [];
  for (const key of keys) {
    const path = prefix ? `${prefix}.${key}` : key;
    const l = Object.hasOwn(left, key) ? left[key] : undefined;
    const r = Object.hasOwn(right, key) ? right[key] : undefined;
    if (l !== undefined && r !== undefined && isObj(l) && isObj(r)) out.push(...fieldChanges(l, r, path, maxDepth - 1));
    else if (!jsonEqual(l, r)) out.push({ path, left: l, right: r });
  }
  return out;
}

const hasId = (v: JsonValue): v is JsonObject => isObj(v) && Object.hasOwn(v, 'id') && v.id !== null;
const idKey = (id: JsonValue | undefined) => JSON.stringify(id ?? null);

function keyed(records: JsonValue[], side: string, notices: string[]): Map<string, JsonValue> {
  const map = new Map<string, JsonValue>();
  const dupes = new Set<string>();
  for (const record of records) {
    let key = idKey((record as JsonObject).id);
    if (map.has(key)) {
      dupes.add(key);
      let n = 2;
      while (map.has(`${key}#${n}`)) n++;
      key = `${key}#${n}`;
    }
    map.set(key, record);
  }
  if (dupes.size > 0) notices.push(`The ${side} side repeats id ${[...dupes].join(', ')}: repeats are matched in order.`);
  return map;
}

function diffArrays(left: JsonValue[], right: JsonValue[]): PayloadDiff {
  const notices: string[] = [];
  const byId = left.every(hasId) && right.every(hasId);
  const result: PayloadDiff = { mode: byId ? 'by-id' : 'by-position', added: [], removed: [], changed: [], unchanged: 0, orderDiffers: false, notices, same: false };
  if (!byId && left.length + right.length > 0) notices.push('Some records have no id: records are matched by position.');
  const l = byId ? keyed(left, 'left', notices) : new Map(left.map((r, i) => [`#${i}`, r]));
  const r = byId ? keyed(right, 'right', notices) : new Map(right.map((rec, i) => [`#${i}`, rec]));
  for (const [key, record] of l) {
    if (!r.has(key)) {
      result.removed.push({ key, record });
      continue;
    }
    const other = r.get(key)!;
    const fields = fieldChanges(record, other);
    if (fields.length === 0) result.unchanged++;
    else result.changed.push({ key, left: record, right: other, fields });
  }
  for (const [key, record] of r) if (!l.has(key)) result.added.push({ key, record });
  if (byId) {
    const common = (m: Map<string, JsonValue>, other: Map<string, JsonValue>) => [...m.keys()].filter((k) => other.has(k));
    const lo = common(l, r);
    const ro = common(r, l);
    result.orderDiffers = lo.some((k, i) => k !== ro[i]);
    if (result.orderDiffers) notices.push('The records common to both sides come in a different order.');
  }
  result.same = result.added.length === 0 && result.removed.length === 0 && result.changed.length === 0 && !result.orderDiffers;
  return result;
}

export function diffPayloads(left: JsonValue, right: JsonValue): PayloadDiff {
  if (Array.isArray(left) && Array.isArray(right)) return diffArrays(left, right);
  const base = { added: [], removed: [], unchanged: 0, orderDiffers: false, notices: [] as string[] };
  if (isObj(left) && isObj(right)) {
    const fields = fieldChanges(left, right);
    const key = hasId(left) ? idKey(left.id) : 'record';
    if (hasId(left) && hasId(right) && !jsonEqual(left.id, right.id)) base.notices.push(`The two sides answered different records (id ${idKey(left.id)} and ${idKey(right.id)}).`);
    return { ...base, mode: 'single', changed: fields.length > 0 ? [{ key, left, right, fields }] : [], unchanged: fields.length === 0 ? 1 : 0, same: fields.length === 0 };
  }
  const same = jsonEqual(left, right);
  return { ...base, mode: 'value', changed: same ? [] : [{ key: 'value', left, right, fields: [{ path: '(value)', left, right }] }], same };
}
