/**
 * Validates one model in two steps. `createModel` resolves its fields (needs only the set of model
 * keys, for `ref` targets); `completeModel` then resolves what refers to other models' fields or to
 * its own: relations, search, ordering, indexes and permissions.
 */
import type { FieldDef, ModelDef, RelationDef } from './types.ts';
import type { At } from './check.ts';
import { checkFieldName, expectKeys, expectObject, expectStringArray, fail, show } from './check.ts';
import { resolveField } from './resolve-field.ts';
import { resolvePermissions } from './resolve-permissions.ts';

const MODEL_KEYS = ['fields', 'relations', 'search', 'ordering', 'indexes', 'permissions'] as const;

export function createModel(app: string, name: string, spec: Record<string, unknown>, at: At, modelKeys: ReadonlySet<string>): ModelDef {
  expectKeys(spec, MODEL_KEYS, at, 'the model');
  const fields = new Map<string, FieldDef>();
  if (spec.fields !== undefined) {
    for (const [fieldName, rawField] of Object.entries(expectObject(spec.fields, at, '"fields"'))) {
      const fieldAt = { ...at, field: fieldName };
      checkFieldName(fieldName, fieldAt, 'field');
      fields.set(fieldName, resolveField(fieldName, rawField, fieldAt, modelKeys));
    }
  }
  const key = `${app}.${name}`;
  return { key, app, name, table: key, fields, relations: new Map(), search: [], ordering: [], indexes: [], permissions: null };
}

export function completeModel(model: ModelDef, spec: Record<string, unknown>, at: At, models: ReadonlyMap<string, ModelDef>, userFields: ReadonlySet<string>): void {
  if (spec.relations !== undefined) {
    for (const [name, raw] of Object.entries(expectObject(spec.relations, at, '"relations"'))) {
      model.relations.set(name, resolveRelation(model, name, raw, { ...at, relation: name }, models));
    }
  }
  const readable = (name: string): FieldDef | undefined => {
    const field = model.fields.get(name);
    return field && !field.writeOnly && !field.hidden ? field : undefined;
  };

  if (spec.search === undefined) {
    model.search = [...model.fields.values()].filter((f) => readable(f.name) && (f.type === 'string' || f.type === 'text')).map((f) => f.name);
  } else {
    model.search = [...expectStringArray(spec.search, at, '"search"')];
    for (const name of model.search) {
      const field = readable(name);
      if (!field) fail({ ...at, field: name }, '"search" names an unknown or unreadable field');
      if (field.type !== 'string' && field.type !== 'text') fail({ ...at, field: name }, `"search" takes string and text fields, not "${field.type}"`);
    }
  }

  if (spec.ordering !== undefined) {
    model.ordering = [...expectStringArray(spec.ordering, at, '"ordering"')];
    for (const entry of model.ordering) {
      const name = entry.startsWith('-') ? entry.slice(1) : entry;
      if (name !== 'id' && !readable(name)) fail({ ...at, field: name }, `"ordering" entry ${show(entry)} names an unknown or unreadable field`);
    }
  }

  if (spec.indexes !== undefined) {
    if (!Array.isArray(spec.indexes)) fail(at, `"indexes" must be an array of arrays of field names, got ${show(spec.indexes)}`);
    model.indexes = spec.indexes.map((entry) => {
      const names = expectStringArray(entry, at, 'each "indexes" entry');
      if (names.length === 0) fail(at, 'an "indexes" entry is empty');
      if (new Set(names).size !== names.length) fail(at, `"indexes" entry ${show(names)} lists a field twice`);
      for (const name of names) if (!model.fields.has(name)) fail({ ...at, field: name }, '"indexes" names an unknown field');
      return [...names];
    });
  }

  model.permissions = resolvePermissions(spec.permissions, at, { fields: model.fields, userFields });
}

function resolveRelation(model: ModelDef, name: string, raw: unknown, at: At, models: ReadonlyMap<string, ModelDef>): RelationDef {
  checkFieldName(name, at, 'relation');
  if (model.fields.has(name)) fail(at, 'has the name of a field of the same model');
  const spec = expectObject(raw, at, 'a relation');
  expectKeys(spec, ['many', 'via'], at, 'the relation');
  if (typeof spec.many !== 'string' || !models.has(spec.many)) fail(at, `"many" must name a model "<app>.<Model>", got ${show(spec.many)}`);
  const target = models.get(spec.many) as ModelDef;
  if (typeof spec.via !== 'string') fail(at, `"via" must name a ref field of ${target.key}, got ${show(spec.via)}`);
  const via = target.fields.get(spec.via);
  if (!via || via.type !== 'ref') fail(at, `"via" must name a ref field of ${target.key}; "${spec.via}" is not one`);
  if (via.to !== model.key) fail(at, `"via" field ${target.key}.${spec.via} points at ${via.to}, not at ${model.key}`);
  return { name, many: target.key, via: spec.via };
}
