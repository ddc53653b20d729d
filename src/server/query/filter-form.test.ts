// The form key of a WHERE (issue 29): a cached plan runs its SQL for another request's values only
// when their form is the plan's, so two values that compile to different SQL text must have different
// forms. This compiles every lookup of every field type (and through references) with values of every
// class, in filter, exclude and uniqueObject, fresh and through a plan's rebind, and requires the form
// to decide the SQL text. A branch added to the builder without a token of its own fails here, and so
// does a token this test does not list.
import { describe, expect, it } from 'vitest';
import type { FilterLookup, JsonValue } from '../../shared/protocol.ts';
import { createAccessControl } from '../auth/access.ts';
import { JqlFailure } from '../errors.ts';
import { compileWhere, type Where } from '../processors/model/where.ts';
import type { EntryValues } from './plan-values.ts';
import { resolveWorkspace } from '../workspace/resolve.ts';
import type { ModelDef } from '../workspace/types.ts';
import { lookupsFor } from './filter.ts';
import { JoinSet } from './joins.ts';
import { fieldOf } from './paths.ts';
import { ModelReach } from './reach.ts';

const EVERY_TYPE = {
  s: { type: 'string', null: true },
  t: { type: 'text', null: true },
  i: { type: 'integer', null: true },
  n: { type: 'number', null: true },
  b: { type: 'boolean', null: true },
  d: { type: 'date', null: true },
  dt: { type: 'datetime', null: true },
  j: { type: 'json', null: true },
  f: { type: 'file', null: true },
};

const ws = resolveWorkspace(
  {
    name: 'forms',
    apps: {
      a: {
        models: {
          Far: { fields: EVERY_TYPE },
          Near: { fields: { ...EVERY_TYPE, far: { type: 'ref', to: 'a.Far', null: true } } },
          Root: { fields: { ...EVERY_TYPE, near: { type: 'ref', to: 'a.Near', null: true } } },
        },
      },
    },
  },
  null,
);
const root = ws.models.get('a.Root') as ModelDef;
const anonymous = { state: { ws, access: createAccessControl() }, user: null };

/** Values of every JSON class, and the ones each type or lookup takes. */
const VALUES: JsonValue[] = [
  null,
  true,
  false,
  0,
  7,
  -2.5,
  '',
  'a',
  'x%_*?[',
  '2030-01-02',
  '2030-01-02T10:00:00+02:00',
  [],
  [1],
  [null],
  [1, 2],
  ['a', 'b'],
  [1, 2, 3, 4, 5],
  ['2030-01-01', '2030-02-01'],
  [true, false],
  {},
  { k: 1 },
];

/** Every branch of the builder, by the token it writes (query/filter.ts condition()). */
const BRANCHES = [
  'exact:null',
  'exact:value',
  'ne:null',
  'ne:value',
  'isnull:true',
  'isnull:false',
  'in:list',
  'range:pair',
  'gt:value',
  'gte:value',
  'lt:value',
  'lte:value',
  'iexact:text',
  'contains:text',
  'icontains:text',
  'startswith:text',
  'istartswith:text',
  'endswith:text',
  'iendswith:text',
];

/** Every filter key: each field of the root, and of the models one and two references away. */
function keysOf(): Array<{ key: string; lookups: FilterLookup[] }> {
  const keys: Array<{ key: string; lookups: FilterLookup[] }> = [];
  for (const prefix of ['', 'near.', 'near__far__']) {
    for (const name of ['id', ...Object.keys(EVERY_TYPE), ...(prefix === '' ? ['near'] : prefix === 'near.' ? ['far'] : [])]) {
      const model = prefix === '' ? root : (ws.models.get(prefix === 'near.' ? 'a.Near' : 'a.Far') as ModelDef);
      const field = fieldOf(model, name);
      if (field) keys.push({ key: `${prefix}${name}`, lookups: lookupsFor(field) });
    }
  }
  return keys;
}

type Section = 'filter' | 'exclude' | 'uniqueObject';

function compile(section: Section, entries: Record<string, JsonValue>): Where | null {
  try {
    return compileWhere(ws, root, { [section]: entries, scopes: null }, new JoinSet(new ModelReach(anonymous, root, null)));
  } catch (error) {
    if (error instanceof JqlFailure) return null;
    throw error;
  }
}

function rebound(where: Where, section: Section, values: JsonValue[]): Where | null {
  const entryValues: EntryValues = { uniqueObject: [], filter: [], exclude: [], [section]: values };
  try {
    return (where.rebind as (values: EntryValues) => Where)(entryValues);
  } catch (error) {
    if (error instanceof JqlFailure) return null;
    throw error;
  }
}

/** The SQL text each form stands for, per key: a second text for one form is a branch the key misses. */
function expectFormDecidesSql(textOfForm: Map<string, string>, where: Where, what: string): void {
  const known = textOfForm.get(where.form);
  if (known === undefined) textOfForm.set(where.form, where.sql);
  else expect(where.sql, `${what}: form ${where.form} stands for two SQL texts`).toBe(known);
}

describe('the form key of a WHERE', () => {
  it('differs whenever the SQL text differs, for every lookup, value class and section, fresh or rebound', () => {
    const seen = new Set<string>();
    let compiled = 0;
    for (const section of ['filter', 'exclude', 'uniqueObject'] as const) {
      for (const { key, lookups } of keysOf()) {
        for (const lookup of lookups) {
          const entry = lookup === 'exact' ? key : `${key}__${lookup}`;
          const textOfForm = new Map<string, string>();
          // `exclude: {"f": null}` is not a condition but a field left out: a shape of its own (plan-shape.ts).
          const values = section === 'exclude' ? VALUES.filter((value) => value !== null) : VALUES;
          // A plan made from each value that compiles, rebound to every other value.
          for (const first of values) {
            const where = compile(section, { [entry]: first });
            if (!where) continue;
            compiled++;
            for (const token of where.form.split(/[;,]/)) if (token !== '') seen.add(token);
            expectFormDecidesSql(textOfForm, where, `${section} ${entry}=${JSON.stringify(first)}`);
            for (const other of values) {
              const again = rebound(where, section, [other]);
              const fresh = compile(section, { [entry]: other });
              // A value the plan cannot bind is one the full path refuses too, and the other way round.
              expect(again === null, `${section} ${entry}: ${JSON.stringify(first)} then ${JSON.stringify(other)}`).toBe(fresh === null);
              if (!again || !fresh) continue;
              expect(again.form).toBe(fresh.form);
              expect(again.sql).toBe(fresh.sql);
              expect(again.params).toEqual(fresh.params);
              expectFormDecidesSql(textOfForm, again, `${section} ${entry}: ${JSON.stringify(first)} then ${JSON.stringify(other)}`);
            }
          }
        }
      }
    }
    expect(compiled).toBeGreaterThan(500);
    expect([...seen].sort()).toEqual([...BRANCHES].sort());
  });

  it('keeps each entry’s form apart, in its section and its order', () => {
    const two = (a: JsonValue, b: JsonValue) => compile('filter', { s: a, i__isnull: b }) as Where;
    const forms = new Set([two(null, true), two(null, false), two('x', true), two('x', false)].map((where) => where.form));
    expect(forms.size).toBe(4);
    const both = (section: Section, value: JsonValue) =>
      compileWhere(ws, root, { filter: { s: 'x' }, [section]: { i: value }, scopes: null }, new JoinSet(new ModelReach(anonymous, root, null))).form;
    expect(both('exclude', null)).not.toBe(both('exclude', 1));
    expect(both('uniqueObject', null)).not.toBe(both('uniqueObject', 1));
  });
});
