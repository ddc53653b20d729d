/**
 * The filter rules of docs/protocol.md ("`__meta__` keys": filter, exclude, uniqueObject, ordering) in
 * plain TypeScript over plain rows, with no SQL: the oracle the server's answers are checked against
 * (query/filter-oracle.property.test.ts). Written from the contract, not from the server's code:
 * - every entry of `filter` must match; `exclude` removes a record only when all its non-null entries
 *   match it, and a NULL never matches, so a record whose value is NULL stays;
 * - `exact` with null is IS NULL, `ne` is null-safe (`ne: 5` keeps NULLs, `ne: null` is IS NOT NULL);
 * - a path through a missing reference (none, or a record the caller may not see) has the value NULL;
 * - `in` takes an array (an empty one matches nothing), `range` [lo, hi] inclusive, `isnull` a boolean;
 * - `exact`, `contains`, `startswith`, `endswith` are case-sensitive, the `i` forms are not (ASCII);
 *   `%`, `_` and `*` are literal characters;
 * - ordering: NULLs first ascending and last descending, strings by code point, ties by id.
 * A value of the wrong type for its field or lookup is refused as `invalid_request`.
 */

export type RefFieldType = 'string' | 'text' | 'integer' | 'number' | 'boolean' | 'date' | 'ref';
export type Cell = string | number | boolean | null;
export type RefRow = { id: number } & Record<string, Cell>;

export interface RefModel {
  fields: Record<string, { type: RefFieldType; to?: string }>;
}

/** The rows a caller can see, by model key, and the models they belong to. */
export interface RefData {
  models: Record<string, RefModel>;
  rows: Record<string, RefRow[]>;
}

export interface RefQuery {
  filter?: Record<string, unknown>;
  exclude?: Record<string, unknown>;
  uniqueObject?: Record<string, unknown>;
}

/** A query the contract refuses, with the code it is refused with. */
export class RefRefusal extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

const LOOKUPS = new Set(['exact', 'iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith', 'gt', 'gte', 'lt', 'lte', 'in', 'range', 'isnull', 'ne']);
const TEXT_LOOKUPS = new Set(['iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith']);
const ORDER_LOOKUPS = new Set(['gt', 'gte', 'lt', 'lte', 'range']);

interface Path {
  /** The reference fields followed, then the field read. */
  steps: string[];
  type: RefFieldType;
  lookup: string;
}

function fieldType(data: RefData, model: string, name: string): { type: RefFieldType; to?: string } | undefined {
  if (name === 'id') return { type: 'integer' };
  return data.models[model]?.fields[name];
}

/** `b.c.name__icontains`, `b__isnull`: the fields followed and the lookup (`exact` when none). */
export function parseKey(data: RefData, model: string, key: string): Path {
  const segments = key.split('.').flatMap((part) => part.split('__'));
  const steps: string[] = [];
  let current = model;
  let type: RefFieldType | null = null;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const last = i === segments.length - 1;
    if (type !== null) {
      if (last && LOOKUPS.has(segment)) return { steps, type, lookup: segment };
      if (type !== 'ref') throw new RefRefusal('invalid_lookup', `Unknown lookup ${segment}`);
      current = fieldType(data, current, steps[steps.length - 1] as string)?.to as string;
    }
    const field = fieldType(data, current, segment);
    if (!field) throw new RefRefusal('unknown_field', `Unknown field ${segment}`);
    steps.push(segment);
    type = field.type;
  }
  return { steps, type: type as RefFieldType, lookup: 'exact' };
}

/** The value a path reads on a row: NULL through a missing reference. */
export function valueAt(data: RefData, model: string, row: RefRow, steps: string[]): Cell {
  let current: RefRow | undefined = row;
  let currentModel = model;
  for (let i = 0; i < steps.length - 1; i++) {
    const name = steps[i] as string;
    const id: Cell | undefined = current[name];
    const target = fieldType(data, currentModel, name)?.to as string;
    current = id === null || id === undefined ? undefined : data.rows[target]?.find((r) => r.id === id);
    if (!current) return null;
    currentModel = target;
  }
  return current[steps[steps.length - 1] as string] ?? null;
}

function typeOk(type: RefFieldType, value: unknown): boolean {
  switch (type) {
    case 'string':
    case 'text':
      return typeof value === 'string';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
    case 'ref':
      return Number.isSafeInteger(value) && (value as number) > 0;
  }
}

function checked(type: RefFieldType, value: unknown): Cell {
  if (!typeOk(type, value)) throw new RefRefusal('invalid_request', `Wrong value ${JSON.stringify(value)} for a ${type}`);
  return value as Cell;
}

/** Numbers and booleans compare as numbers, text by code point. */
function compare(a: Cell, b: Cell): number {
  const x = typeof a === 'boolean' ? Number(a) : a;
  const y = typeof b === 'boolean' ? Number(b) : b;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const s = [...String(x)].map((c) => c.codePointAt(0) as number);
  const t = [...String(y)].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(s.length, t.length); i++) if (s[i] !== t[i]) return (s[i] as number) - (t[i] as number);
  return s.length - t.length;
}

const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The operand of an entry, checked against its field and lookup as the contract says. */
function operandOf(type: RefFieldType, lookup: string, value: unknown): Cell | Cell[] {
  const allowed =
    lookup === 'exact' ||
    lookup === 'ne' ||
    lookup === 'in' ||
    lookup === 'isnull' ||
    (TEXT_LOOKUPS.has(lookup) && (type === 'string' || type === 'text' || type === 'date')) ||
    (ORDER_LOOKUPS.has(lookup) && type !== 'boolean');
  if (!allowed) throw new RefRefusal('invalid_lookup', `${lookup} does not apply to ${type}`);
  if (lookup === 'isnull') {
    if (typeof value !== 'boolean') throw new RefRefusal('invalid_request', 'isnull takes a boolean');
    return value;
  }
  if (lookup === 'in') {
    if (!Array.isArray(value)) throw new RefRefusal('invalid_request', 'in takes an array');
    return value.map((item) => checked(type, item));
  }
  if (lookup === 'range') {
    if (!Array.isArray(value) || value.length !== 2) throw new RefRefusal('invalid_request', 'range takes [lo, hi]');
    return [checked(type, value[0]), checked(type, value[1])];
  }
  if (TEXT_LOOKUPS.has(lookup)) {
    if (typeof value !== 'string') throw new RefRefusal('invalid_request', 'a text lookup takes a string');
    return value;
  }
  return (lookup === 'exact' || lookup === 'ne') && value === null ? null : checked(type, value);
}

/** Whether the entry holds for the cell: a comparison with NULL never does (ne and isnull aside). */
export function entryHolds(type: RefFieldType, lookup: string, cell: Cell, value: unknown): boolean {
  const operand = operandOf(type, lookup, value);
  switch (lookup) {
    case 'exact':
      return operand === null ? cell === null : cell !== null && compare(cell, operand as Cell) === 0;
    case 'ne':
      return operand === null ? cell !== null : cell === null || compare(cell, operand as Cell) !== 0;
    case 'isnull':
      return operand === (cell === null);
    case 'in':
      return cell !== null && (operand as Cell[]).some((item) => compare(cell, item) === 0);
    case 'range': {
      const [lo, hi] = operand as [Cell, Cell];
      return cell !== null && compare(cell, lo) >= 0 && compare(cell, hi) <= 0;
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      if (cell === null) return false;
      const order = compare(cell, operand as Cell);
      return lookup === 'gt' ? order > 0 : lookup === 'gte' ? order >= 0 : lookup === 'lt' ? order < 0 : order <= 0;
    }
    default: {
      if (cell === null) return false;
      const insensitive = lookup.startsWith('i');
      const text = insensitive ? asciiLower(String(cell)) : String(cell);
      const term = insensitive ? asciiLower(operand as string) : (operand as string);
      const kind = insensitive ? lookup.slice(1) : lookup;
      if (kind === 'exact') return text === term;
      if (kind === 'contains') return text.includes(term);
      if (kind === 'startswith') return text.startsWith(term);
      return text.endsWith(term);
    }
  }
}

function allHold(data: RefData, model: string, row: RefRow, entries: Record<string, unknown>): boolean {
  let all = true;
  // Every entry is checked, so a refused value is refused whatever the rows.
  for (const [key, value] of Object.entries(entries)) {
    const path = parseKey(data, model, key);
    if (!entryHolds(path.type, path.lookup, valueAt(data, model, row, path.steps), value)) all = false;
  }
  return all;
}

/** The records of `model` the query keeps, in id order. */
export function referenceFilter(data: RefData, model: string, query: RefQuery): RefRow[] {
  const excluded = Object.fromEntries(Object.entries(query.exclude ?? {}).filter(([, value]) => value !== null));
  // Checked once on a row that is all NULL, so a refusal does not depend on there being rows.
  const probe = { id: 0 } as RefRow;
  for (const entries of [query.uniqueObject ?? {}, query.filter ?? {}, excluded]) allHold(data, model, probe, entries);
  return (data.rows[model] ?? [])
    .filter((row) => allHold(data, model, row, query.uniqueObject ?? {}) && allHold(data, model, row, query.filter ?? {}))
    .filter((row) => Object.keys(excluded).length === 0 || !allHold(data, model, row, excluded))
    .sort((a, b) => a.id - b.id);
}

/** `rows` ordered by `ordering` (`-` descending, paths through references), ties by id. */
export function referenceOrder(data: RefData, model: string, rows: RefRow[], ordering: string[]): RefRow[] {
  const keys = ordering.map((term) => ({ descending: term.startsWith('-'), steps: parseKey(data, model, term.replace(/^-/, '')).steps }));
  return [...rows].sort((a, b) => {
    for (const { descending, steps } of keys) {
      const x = valueAt(data, model, a, steps);
      const y = valueAt(data, model, b, steps);
      if (x === y) continue;
      // NULL is smallest: first ascending, last descending.
      const order = x === null ? -1 : y === null ? 1 : compare(x, y);
      if (order !== 0) return descending ? -order : order;
    }
    return a.id - b.id;
  });
}
