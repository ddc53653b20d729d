/**
 * Random workspaces, rows and read queries for the property tests of issue 29 (shortcuts.property.test.ts,
 * filter-oracle.property.test.ts). Three models, each with one to three nullable fields of random
 * types: `r.A` references `r.B`, which references `r.C`, whose rows belong to users. Anyone reads A and
 * B; C only members (their own rows, a row scope) and admins, so a path from A crosses two references
 * and a row scope. Values are drawn so that they change the SQL's form: null or not, `isnull` both
 * ways, `in` lists of 0 to 5 items, `ne` with null, references to records that do not exist.
 *
 * Queries are generated as numbers (picks) and made concrete against the workspace and the rows known
 * at the time they run, so one sequence runs the same on every server that replays it.
 */
import fc from 'fast-check';
import type { RefData, RefFieldType, RefModel, RefRow } from './reference-filter.ts';

export type Caller = 'anonymous' | 'member' | 'admin';
export const CALLERS: Caller[] = ['anonymous', 'member', 'admin'];
export const MODELS = ['r.A', 'r.B', 'r.C'] as const;
export type ModelKey = (typeof MODELS)[number];

const PLAIN_TYPES = ['string', 'integer', 'boolean', 'date'] as const;
type PlainType = (typeof PLAIN_TYPES)[number];

/** The model each reference points at, and its field name. */
const REFS: Record<ModelKey, { name: string; to: string } | null> = {
  'r.A': { name: 'b', to: 'r.B' },
  'r.B': { name: 'c', to: 'r.C' },
  'r.C': { name: 'owner', to: 'system.User' },
};

export type FieldTypes = Record<ModelKey, PlainType[]>;

export const fieldTypesArb: fc.Arbitrary<FieldTypes> = fc.record({
  'r.A': fc.array(fc.constantFrom(...PLAIN_TYPES), { minLength: 1, maxLength: 3 }),
  'r.B': fc.array(fc.constantFrom(...PLAIN_TYPES), { minLength: 1, maxLength: 3 }),
  'r.C': fc.array(fc.constantFrom(...PLAIN_TYPES), { minLength: 1, maxLength: 3 }),
});

const ADMIN_WRITES = { create: ['admin'], update: ['admin'], delete: ['admin'] };

export function workspaceOf(types: FieldTypes): unknown {
  const models: Record<string, unknown> = {};
  for (const key of MODELS) {
    const fields: Record<string, unknown> = {};
    types[key].forEach((type, i) => (fields[`f${i}`] = { type, null: true }));
    const ref = REFS[key] as { name: string; to: string };
    fields[ref.name] = { type: 'ref', to: ref.to, null: true };
    const permissions = key === 'r.C' ? { retrieve: ['member'], ...ADMIN_WRITES, scope: { member: { owner: '$user.id' } } } : { retrieve: ['anyone'], ...ADMIN_WRITES };
    models[key.slice(2)] = { fields, permissions };
  }
  return { name: 'random', apps: { r: { models } } };
}

/** The models as the reference evaluator sees them (system.User only as a target of `owner`). */
export function refModelsOf(types: FieldTypes): Record<string, RefModel> {
  const out: Record<string, RefModel> = { 'system.User': { fields: {} } };
  for (const key of MODELS) {
    const fields: RefModel['fields'] = {};
    types[key].forEach((type, i) => (fields[`f${i}`] = { type }));
    const ref = REFS[key] as { name: string; to: string };
    fields[ref.name] = { type: 'ref', to: ref.to };
    out[key] = { fields };
  }
  return out;
}

const DOMAINS: Record<PlainType | 'ref', Array<string | number | boolean>> = {
  string: ['', 'a', 'A', 'ab', 'aB', 'b%', 'a_b', 'b*c'],
  integer: [-1, 0, 1, 2, 3],
  boolean: [true, false],
  date: ['2030-01-01', '2030-01-02', '2030-02-01'],
  // 9 and 99 name records that never exist: a missing reference.
  ref: [1, 2, 3, 4, 9, 99],
};

const TEXT = ['iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith'];
const ORDERED = ['gt', 'gte', 'lt', 'lte', 'range'];

function lookupsOf(type: RefFieldType): string[] {
  const all = ['exact', 'ne', 'in', 'isnull'];
  if (type === 'string' || type === 'date') all.push(...TEXT);
  if (type !== 'boolean') all.push(...ORDERED);
  return all;
}

interface FieldPath {
  key: string;
  type: RefFieldType;
  /** The models its hops enter. */
  enters: string[];
}

/** Every path a query may name from `model`: its fields, its reference, and through one and two references. */
export function pathsOf(models: Record<string, RefModel>, model: string, depth = 2, prefix = '', enters: string[] = []): FieldPath[] {
  const paths: FieldPath[] = [{ key: `${prefix}id`, type: 'integer', enters }];
  for (const [name, field] of Object.entries(models[model]?.fields ?? {})) {
    paths.push({ key: `${prefix}${name}`, type: field.type, enters });
    if (field.type === 'ref' && depth > 0 && field.to !== 'system.User') {
      // Both separators, as the contract allows.
      const next = depth === 2 ? `${prefix}${name}.` : `${prefix}${name}__`;
      paths.push(...pathsOf(models, field.to as string, depth - 1, next, [...enters, field.to as string]));
    }
  }
  return paths;
}

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;

export interface EntryPicks {
  path: number;
  lookup: number;
  kind: number;
  a: number;
  b: number;
  length: number;
}

const nat = fc.nat({ max: 1000 });
export const entryArb: fc.Arbitrary<EntryPicks> = fc.record({ path: nat, lookup: nat, kind: nat, a: nat, b: nat, length: fc.nat({ max: 5 }) });

/** One entry made concrete; `valid` draws only values the contract accepts (the oracle's queries). */
export function entryOf(paths: FieldPath[], picks: EntryPicks, valid: boolean, nullable = true): { key: string; value: unknown; enters: string[] } {
  const path = pick(paths, picks.path);
  // Half the entries use the lookups whose SQL depends on the value (null or not, true or false).
  const lookup = pick(picks.lookup % 2 === 0 ? ['exact', 'ne', 'isnull'] : lookupsOf(path.type), picks.lookup >> 1);
  const domain = DOMAINS[path.type === 'text' || path.type === 'number' ? 'string' : path.type];
  const one = (n: number) => pick(domain, n);
  let value: unknown;
  if (lookup === 'exact' || lookup === 'ne') value = picks.kind % 3 === 0 && nullable ? null : one(picks.a);
  else if (lookup === 'isnull') value = picks.kind % 2 === 0;
  else if (lookup === 'in') {
    value = Array.from({ length: picks.length }, (_, i) => one(picks.a + i * (picks.b + 1)));
    // A null item is refused (it is not a value of the field): the same refusal with and without shortcuts.
    if (!valid && picks.kind % 7 === 0) value = [...(value as unknown[]), null];
  } else if (lookup === 'range') value = [one(picks.a), one(picks.b)];
  else if (TEXT.includes(lookup)) value = String(one(picks.a)).slice(picks.b % 2, 1 + (picks.b % 3));
  else value = one(picks.a);
  if (!valid && picks.kind % 11 === 1) value = typeof value === 'string' ? 5 : 'x';
  const key = lookup === 'exact' && (picks.path >> 3) % 2 === 1 ? path.key : `${path.key}__${lookup}`;
  return { key, value, enters: path.enters };
}

export interface QueryPicks {
  who: number;
  model: number;
  intent: number;
  filter: EntryPicks[];
  exclude: EntryPicks[];
  unique: EntryPicks[];
  byId: number | null;
  ordering: Array<{ path: number; descending: boolean }>;
  limit: number | null;
  offset: number | null;
  cache: boolean;
  omit: boolean;
}

export const queryArb: fc.Arbitrary<QueryPicks> = fc.record({
  who: fc.nat({ max: 2 }),
  model: fc.nat({ max: 4 }),
  intent: fc.nat({ max: 3 }),
  filter: fc.array(entryArb, { maxLength: 3 }),
  exclude: fc.array(entryArb, { maxLength: 2 }),
  unique: fc.array(entryArb, { minLength: 1, maxLength: 2 }),
  byId: fc.option(fc.nat({ max: 12 }), { nil: null }),
  ordering: fc.array(fc.record({ path: nat, descending: fc.boolean() }), { maxLength: 2 }),
  limit: fc.option(fc.nat({ max: 6 }), { nil: null }),
  offset: fc.option(fc.nat({ max: 3 }), { nil: null }),
  cache: fc.boolean(),
  omit: fc.boolean(),
});

export interface ConcreteQuery {
  who: Caller;
  model: ModelKey;
  intent: 'retrieve' | 'count' | 'retrieveOne';
  body: Record<string, unknown>;
  /** The models the query's paths enter (its root aside). */
  enters: Set<string>;
  filter: Record<string, unknown>;
  exclude: Record<string, unknown>;
  uniqueObject: Record<string, unknown> | null;
  ordering: string[];
  limit: number | null;
  offset: number | null;
  cache: boolean;
}

/**
 * Another request of a query's shape: the same keys, paths and lookups, other values and another
 * caller, so that it meets the plan the first one made (plan-cache.ts) with values of another form.
 */
export interface Variation {
  who: number;
  values: Array<Pick<EntryPicks, 'kind' | 'a' | 'b' | 'length'>>;
  byId: number;
  limit: number | null;
  offset: number | null;
}

export const variationArb: fc.Arbitrary<Variation> = fc.record({
  who: fc.nat({ max: 2 }),
  values: fc.array(fc.record({ kind: nat, a: nat, b: nat, length: fc.nat({ max: 5 }) }), { minLength: 7, maxLength: 7 }),
  byId: fc.nat({ max: 12 }),
  limit: fc.option(fc.nat({ max: 6 }), { nil: null }),
  offset: fc.option(fc.nat({ max: 3 }), { nil: null }),
});

/** The query of `picks`, or of its shape with the values and caller of `vary`. */
export function queryOf(models: Record<string, RefModel>, template: QueryPicks, valid: boolean, vary: Variation | null = null): ConcreteQuery {
  // Whether limit and offset are sent is part of the shape: only their values vary.
  const picks: QueryPicks = vary
    ? {
        ...template,
        who: vary.who,
        limit: template.limit === null ? null : (vary.limit ?? template.limit),
        offset: template.offset === null ? null : (vary.offset ?? template.offset),
        byId: template.byId === null ? null : vary.byId,
      }
    : template;
  // C is read by members only: anonymous reads of it are all refusals, so it is drawn less often.
  const model = pick(['r.A', 'r.A', 'r.B', 'r.B', 'r.C'] as const, picks.model);
  const intent = pick(['retrieve', 'retrieve', 'count', 'retrieveOne'] as const, picks.intent);
  const paths = pathsOf(models, model);
  const enters = new Set<string>();
  let index = 0;
  // In exclude a null is not a condition but a field left out of the records: not drawn there.
  const entries = (list: EntryPicks[], nullable = true) => {
    const out: Record<string, unknown> = {};
    for (const shaped of list) {
      const entry = vary ? { ...shaped, ...(vary.values[index++ % vary.values.length] as Variation['values'][number]) } : shaped;
      const { key, value, enters: hops } = entryOf(paths, entry, valid, nullable);
      out[key] = value;
      for (const hop of hops) enters.add(hop);
    }
    return out;
  };
  const filter = entries(picks.filter);
  const exclude = entries(picks.exclude, false);
  const uniqueObject = intent !== 'retrieveOne' ? null : picks.byId !== null ? { id: picks.byId } : entries(picks.unique);
  // Only a retrieve sends its ordering.
  const ordering = (intent === 'retrieve' ? picks.ordering : []).map(({ path, descending }) => {
    const chosen = pick(paths, path);
    for (const hop of chosen.enters) enters.add(hop);
    return `${descending ? '-' : ''}${chosen.key}`;
  });
  const meta: Record<string, unknown> = { namespace: model, intent };
  if (Object.keys(filter).length > 0) meta.filter = filter;
  const sentExclude = { ...exclude };
  // `exclude: {"f0": null}` leaves the field out of the records (not a condition).
  if (picks.omit && intent !== 'count') sentExclude.f0 = null;
  if (Object.keys(sentExclude).length > 0) meta.exclude = sentExclude;
  if (uniqueObject) meta.uniqueObject = uniqueObject;
  const cache = intent === 'retrieve' && picks.cache && picks.model % 2 === 0;
  if (intent === 'retrieve') {
    if (ordering.length > 0) meta.ordering = ordering;
    if (picks.limit !== null) meta.limit = picks.limit;
    if (picks.offset !== null) meta.offset = picks.offset;
    if (cache) meta.cache = { enabled: true };
  }
  const who = pick(CALLERS, picks.who);
  return { who, model, intent, body: { __meta__: meta }, enters, filter, exclude, uniqueObject, ordering, limit: picks.limit, offset: picks.offset, cache };
}

/** A write between reads, by the admin: made concrete against the rows known then. */
export interface WritePicks {
  kind: number;
  model: number;
  row: number;
  values: number[];
}

export const writeArb: fc.Arbitrary<WritePicks> = fc.record({ kind: fc.nat({ max: 2 }), model: fc.nat({ max: 2 }), row: nat, values: fc.array(nat, { minLength: 4, maxLength: 4 }) });

/** The rows written so far, as the admin reads them: the oracle's data and the writes' targets. */
export class KnownRows {
  readonly rows: Record<string, RefRow[]> = { 'r.A': [], 'r.B': [], 'r.C': [] };
  private readonly types: FieldTypes;
  private readonly users: number[];

  constructor(types: FieldTypes, users: number[]) {
    this.types = types;
    this.users = users;
  }

  /** Field values for a new or updated row of `model`, null about one time in four. */
  valuesFor(model: ModelKey, picks: number[]): Record<string, string | number | boolean | null> {
    const values: Record<string, string | number | boolean | null> = {};
    this.types[model].forEach((type, i) => {
      const n = picks[i % picks.length] as number;
      values[`f${i}`] = n % 4 === 0 ? null : pick(DOMAINS[type], n >> 2);
    });
    const ref = REFS[model] as { name: string; to: string };
    const n = picks[3] as number;
    const targets = ref.to === 'system.User' ? this.users : (this.rows[ref.to] ?? []).map((row) => row.id);
    values[ref.name] = n % 3 === 0 || targets.length === 0 ? null : pick(targets, n);
    return values;
  }

  /** The write to send, or null when it has nothing to change. */
  writeOf(picks: WritePicks): { model: ModelKey; body: Record<string, unknown>; apply: (answer: any) => void } | null {
    const model = pick(MODELS, picks.model);
    const existing = this.rows[model] as RefRow[];
    const values = this.valuesFor(model, picks.values);
    if (picks.kind === 0 || existing.length === 0) {
      return { model, body: { __meta__: { namespace: model, intent: 'create' }, ...values }, apply: (answer) => existing.push({ ...values, id: answer.__payload__.id } as RefRow) };
    }
    const row = pick(existing, picks.row);
    if (picks.kind === 1) {
      return { model, body: { __meta__: { namespace: model, intent: 'update', uniqueObject: { id: row.id } }, ...values }, apply: () => Object.assign(row, values) };
    }
    return {
      model,
      body: { __meta__: { namespace: model, intent: 'delete', uniqueObject: { id: row.id } } },
      apply: () => {
        existing.splice(existing.indexOf(row), 1);
        // Nullable references to it are cleared (ON DELETE SET NULL).
        for (const other of MODELS) if (REFS[other]?.to === model) for (const r of this.rows[other] as RefRow[]) if (r[(REFS[other] as { name: string }).name] === row.id) r[(REFS[other] as { name: string }).name] = null;
      },
    };
  }

  /** What `who` may read: every row for the admin, its own C rows for a member, no C for anonymous. */
  visibleTo(who: Caller, models: Record<string, RefModel>, memberId: number): RefData {
    const rows: Record<string, RefRow[]> = { ...this.rows, 'system.User': this.users.map((id) => ({ id }) as RefRow) };
    if (who === 'member') rows['r.C'] = (this.rows['r.C'] as RefRow[]).filter((row) => row.owner === memberId);
    if (who === 'anonymous') rows['r.C'] = [];
    return { models, rows };
  }
}
