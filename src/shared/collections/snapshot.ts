/**
 * Snapshot assertions (docs/collections.md "Snapshots"): the approved answer of a request, kept as a
 * file beside it (`<name>.snapshot.json`), and the comparison of a new answer with it, record by
 * record. Pure: the folder code reads and writes the files, the runner compares.
 *
 * What is kept: the standard envelope without `__system__` (its time differs on every run), without
 * the `ignore` paths of the request, with every secret or captured credential replaced by its
 * variable's `{{name}}`, keys sorted, pretty-printed with a final newline.
 *
 * In an approved snapshot a value may be a type-only matcher instead of a value: `"any"`,
 * `"any:string"`, `"any:number"`, `"any:integer"`, `"any:boolean"`, `"any:date"`, `"any:datetime"`,
 * `"any:array"`, `"any:object"`; it matches any value of that kind.
 */
import { JSONPath } from 'jsonpath-plus';
import { bigNumberText, isBigNumber, stringifyKeepingNumbers } from '../big-number.ts';
import type { JsonObject, JsonValue } from '../protocol.ts';
import { standardEnvelope } from './assertions.ts';
import { REQUEST_SUFFIX } from './format.ts';

export const SNAPSHOT_SUFFIX = '.snapshot.json';

/** A request's snapshot file: `folder/01-open.jql.json` -> `folder/01-open.snapshot.json`. */
export function snapshotPathOf(requestPath: string): string {
  const base = requestPath.endsWith(REQUEST_SUFFIX) ? requestPath.slice(0, -REQUEST_SUFFIX.length) : requestPath;
  return `${base}${SNAPSHOT_SUFFIX}`;
}

export interface SnapshotOptions {
  /** JSONPaths into the envelope left out of the snapshot and of the comparison (`$..created_at`). */
  ignore?: string[];
}

/** A value to keep out of snapshots: a secret variable's, or a credential a capture took. */
export interface Redaction {
  variable: string;
  value: string;
}

/** Values shorter than this are not replaced: "1" is an id far more often than a secret. */
const MIN_REDACTED = 4;

const MATCHERS: Record<string, (value: JsonValue) => boolean> = {
  any: () => true,
  'any:string': (v) => typeof v === 'string',
  'any:number': (v) => typeof v === 'number',
  'any:integer': (v) => Number.isInteger(v),
  'any:boolean': (v) => typeof v === 'boolean',
  'any:array': (v) => Array.isArray(v),
  'any:object': (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
  'any:date': (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
  'any:datetime': (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v)),
};

export const SNAPSHOT_MATCHERS: readonly string[] = Object.keys(MATCHERS);

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What a snapshot holds of an answer's body (either envelope shape): see the module comment. */
export function snapshotOf(body: unknown, options: SnapshotOptions = {}, redactions: readonly Redaction[] = []): JsonValue {
  const envelope = standardEnvelope(body);
  const { __system__: _system, ...kept } = (envelope ?? { __body__: (body ?? null) as JsonValue }) as JsonObject;
  const copy = redact(structuredClone(kept) as JsonValue, redactions);
  dropIgnored(copy, options.ignore ?? []);
  return sorted(copy);
}

function redact(value: JsonValue, redactions: readonly Redaction[]): JsonValue {
  const useful = redactions.filter((r) => r.value.length >= MIN_REDACTED);
  if (useful.length === 0) return value;
  const walk = (v: JsonValue): JsonValue => {
    if (typeof v === 'string') return useful.reduce((text, r) => text.split(r.value).join(`{{${r.variable}}}`), v);
    if (Array.isArray(v)) return v.map(walk);
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, walk(inner)]));
    return v;
  };
  return walk(value);
}

function dropIgnored(json: JsonValue, ignore: readonly string[]): void {
  if (!isObject(json) && !Array.isArray(json)) return;
  for (const path of ignore) {
    // Each match's parent and key; deleted last to first so that array indexes stay right.
    const matches = JSONPath({ path, json, resultType: 'all', eval: false }) as Array<{ parent: unknown; parentProperty: string | number }>;
    for (const { parent, parentProperty } of matches.reverse()) {
      if (Array.isArray(parent) && typeof parentProperty === 'number') parent.splice(parentProperty, 1);
      else if (isObject(parent)) delete parent[String(parentProperty)];
    }
  }
}

function sorted(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sorted);
  if (isObject(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k] as JsonValue)]));
  return value;
}

/** A snapshot as its file holds it. */
export function serializeSnapshot(snapshot: JsonValue): string {
  // A number kept as its digits (shared/big-number.ts) is written as those digits, never as a double.
  return `${stringifyKeepingNumbers(sorted(snapshot), 2)}\n`;
}

/** One difference, at a path of the envelope (`$.__payload__[id=3].title`). */
export interface SnapshotChange {
  kind: 'added' | 'removed' | 'changed';
  path: string;
  /** The record it belongs to, when the path goes through a list of records matched by id. */
  record?: string;
  approved?: JsonValue;
  actual?: JsonValue;
}

/** The differences between an approved snapshot and a new one; none when they match. */
export function compareSnapshot(approved: JsonValue, actual: JsonValue, options: SnapshotOptions = {}): SnapshotChange[] {
  const expected = structuredClone(approved);
  dropIgnored(expected, options.ignore ?? []);
  const changes: SnapshotChange[] = [];
  diff(expected, actual, '$', undefined, changes);
  return changes;
}

function matches(approved: JsonValue, actual: JsonValue): boolean {
  return typeof approved === 'string' && Object.hasOwn(MATCHERS, approved) ? (MATCHERS[approved] as (v: JsonValue) => boolean)(actual) : false;
}

/** Lists of objects that all have a distinct scalar `id` are matched by id, others by position. */
function byId(list: JsonValue[]): Map<string, JsonValue> | null {
  const map = new Map<string, JsonValue>();
  for (const item of list) {
    if (!isObject(item) || (typeof item.id !== 'number' && typeof item.id !== 'string')) return null;
    // An approved record whose id is a matcher ("any:integer") is matched by position.
    if (typeof item.id === 'string' && Object.hasOwn(MATCHERS, item.id)) return null;
    // A number kept as its digits is named by those digits in the path, as the answer wrote it.
    const key = isBigNumber(item.id) ? bigNumberText(item.id) : String(item.id);
    if (map.has(key)) return null;
    map.set(key, item);
  }
  return map;
}

function diff(approved: JsonValue, actual: JsonValue, path: string, record: string | undefined, out: SnapshotChange[]): void {
  const at = (kind: SnapshotChange['kind'], where: string, values: Pick<SnapshotChange, 'approved' | 'actual'>, rec = record) =>
    out.push({ kind, path: where, ...(rec !== undefined ? { record: rec } : {}), ...values });
  if (matches(approved, actual)) return;
  if (Array.isArray(approved) && Array.isArray(actual)) {
    const left = byId(approved);
    const right = byId(actual);
    if (left && right && (left.size > 0 || right.size > 0)) {
      for (const [id, value] of left) {
        const where = `${path}[id=${id}]`;
        if (!right.has(id)) at('removed', where, { approved: value }, id);
        else diff(value, right.get(id) as JsonValue, where, id, out);
      }
      for (const [id, value] of right) if (!left.has(id)) at('added', `${path}[id=${id}]`, { actual: value }, id);
      return;
    }
    const length = Math.max(approved.length, actual.length);
    for (let i = 0; i < length; i++) {
      if (i >= actual.length) at('removed', `${path}[${i}]`, { approved: approved[i] as JsonValue });
      else if (i >= approved.length) at('added', `${path}[${i}]`, { actual: actual[i] as JsonValue });
      else diff(approved[i] as JsonValue, actual[i] as JsonValue, `${path}[${i}]`, record, out);
    }
    return;
  }
  if (isObject(approved) && isObject(actual)) {
    for (const key of Object.keys(approved)) {
      const where = `${path}.${key}`;
      if (!Object.hasOwn(actual, key)) at('removed', where, { approved: approved[key] as JsonValue });
      else diff(approved[key] as JsonValue, actual[key] as JsonValue, where, record, out);
    }
    for (const key of Object.keys(actual)) if (!Object.hasOwn(approved, key)) at('added', `${path}.${key}`, { actual: actual[key] as JsonValue });
    return;
  }
  if (JSON.stringify(approved) !== JSON.stringify(actual)) at('changed', path, { approved, actual });
}

const shown = (value: JsonValue | undefined): string => {
  const text = stringifyKeepingNumbers(value) as string | undefined;
  return text === undefined ? '(nothing)' : text.length > 200 ? `${text.slice(0, 197)}...` : text;
};

/** The differences in lines a person reads (a JUnit failure, a terminal). */
export function describeChanges(changes: readonly SnapshotChange[], limit = 50): string {
  const lines = changes.slice(0, limit).map((c) => {
    if (c.kind === 'added') return `+ ${c.path}: ${shown(c.actual)}`;
    if (c.kind === 'removed') return `- ${c.path}: ${shown(c.approved)}`;
    return `~ ${c.path}: ${shown(c.approved)} -> ${shown(c.actual)}`;
  });
  if (changes.length > limit) lines.push(`... and ${changes.length - limit} more`);
  return lines.join('\n');
}
