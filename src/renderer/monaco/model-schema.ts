/**
 * The JSON Schema definitions of one model, from its describe: field selection (data keys, return,
 * nested selections), filter/exclude keys with every lookup suffix and one level through references,
 * ordering entries with '-', group-by paths, uniqueObject fields, and the data keys of the query root.
 */
import { FILTER_LOOKUPS, type DescribeField, type DescribeModel, type DescribeResult, type FilterLookup } from '../../shared/protocol.ts';
import { findModel, readableFields } from './describe-index.ts';
import type { JsonSchema } from './json-schema-type.ts';
import { LOOKUP_HELP } from './protocol-help.ts';


function baseValue(field: DescribeField): JsonSchema {
  switch (field.type) {
    case 'integer':
    case 'ref':
      return { type: 'integer', ...(field.min !== undefined ? { minimum: field.min } : {}), ...(field.max !== undefined ? { maximum: field.max } : {}) };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'json':
    case 'file':
      return {};
    default:
      return {
        type: 'string',
        ...(field.choices ? { enum: field.choices } : {}),
        ...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {}),
      };
  }
}

function fieldHelp(name: string, field: DescribeField): string {
  const bits: string[] = [field.type === 'ref' && field.to ? `ref → ${field.to}` : field.type];
  if (field.required) bits.push('required');
  if (field.null) bits.push('nullable');
  if (field.unique) bits.push('unique');
  if (field.choices) bits.push(`one of ${field.choices.map((c) => JSON.stringify(c)).join(', ')}`);
  if (field.default !== undefined) bits.push(`default ${JSON.stringify(field.default)}`);
  if (field.auto) bits.push(`set on ${field.auto}`);
  return `${name}: ${bits.join(', ')}`;
}

function lookupValue(field: DescribeField, lookup: FilterLookup): JsonSchema {
  const base = baseValue(field);
  switch (lookup) {
    case 'in':
      return { type: 'array', items: base };
    case 'range':
      return { type: 'array', items: base, minItems: 2, maxItems: 2 };
    case 'isnull':
      return { type: 'boolean' };
    case 'exact':
    case 'ne':
      return { anyOf: [{ type: 'null' }, base] };
    case 'contains':
    case 'icontains':
    case 'startswith':
    case 'istartswith':
    case 'endswith':
    case 'iendswith':
    case 'iexact':
      return { type: 'string' };
    default:
      return base;
  }
}

const lookupsOf = (f: DescribeField): FilterLookup[] => (f.lookups?.length ? f.lookups : [...FILTER_LOOKUPS]);

function filterKeys(prefix: string, fields: Array<[string, DescribeField]>, out: Record<string, JsonSchema>): void {
  for (const [name, field] of fields) {
    const key = `${prefix}${name}`;
    out[key] = { ...lookupValue(field, 'exact'), description: fieldHelp(key, field) };
    for (const lookup of lookupsOf(field)) {
      if (lookup === 'exact') continue;
      out[`${key}__${lookup}`] = { ...lookupValue(field, lookup), description: `${key} ${LOOKUP_HELP[lookup]}` };
    }
  }
}

/** A namespace's definitions, keyed so `$ref`s between models (references) can point at them. */
export function modelDefinitions(d: DescribeResult, namespace: string, model: DescribeModel, defs: Record<string, JsonSchema>): void {
  const fields = readableFields(model);
  const ref = (kind: string, ns = namespace) => `#/definitions/${kind}:${ns}`;

  // Field selection (data keys of a read, `return`, nested selections).
  const select: Record<string, JsonSchema> = {};
  for (const [name, field] of fields) {
    const options: JsonSchema[] = [{ type: 'null', description: 'return this field' }];
    if (field.type === 'ref' && field.to && findModel(d, field.to)) options.push({ $ref: ref('select', field.to) });
    select[name] = { description: fieldHelp(name, field), anyOf: options };
  }
  for (const [name, rel] of Object.entries(model.relations ?? {})) {
    const target = findModel(d, rel.many) ? [{ $ref: ref('select', rel.many) }] : [{ type: 'object' }];
    select[name] = { description: `${name}: many ${rel.many} (via ${rel.via})`, anyOf: [{ type: 'null' }, ...target] };
  }
  defs[`select:${namespace}`] = { type: 'object', properties: select, additionalProperties: false };

  // Filter and exclude keys: every readable field with every lookup, and one level through references.
  const filter: Record<string, JsonSchema> = {};
  filterKeys('', fields, filter);
  for (const [name, field] of fields) {
    const target = field.type === 'ref' && field.to ? findModel(d, field.to) : undefined;
    if (target) filterKeys(`${name}__`, readableFields(target), filter);
  }
  defs[`filter:${namespace}`] = {
    type: 'object',
    properties: filter,
    // Deeper paths and the dotted form are valid too; the server checks them (unknown_field).
    patternProperties: { '\\.': {}, '__[^_].*__': {} },
    additionalProperties: false,
  };

  // Ordering entries, ascending and descending, through references with '.'.
  const ordering: string[] = [];
  const groupPaths: string[] = [];
  for (const [name, field] of fields) {
    if (field.type === 'json' || field.type === 'file') continue;
    ordering.push(name, `-${name}`);
    groupPaths.push(name);
    const target = field.type === 'ref' && field.to ? findModel(d, field.to) : undefined;
    for (const [sub, subField] of target ? readableFields(target) : []) {
      if (subField.type === 'json' || subField.type === 'file') continue;
      ordering.push(`${name}.${sub}`, `-${name}.${sub}`);
      groupPaths.push(`${name}.${sub}`);
    }
  }
  defs[`ordering:${namespace}`] = {
    type: 'array',
    items: { anyOf: [{ enum: ordering }, { type: 'string', pattern: '__' }] },
  };
  defs[`groupPaths:${namespace}`] = { type: 'array', items: { anyOf: [{ enum: groupPaths }, { type: 'string', pattern: '__' }] } };

  // uniqueObject: unique fields first, any readable field allowed.
  const unique: Record<string, JsonSchema> = {};
  const sorted = [...fields].sort(([a, fa], [b, fb]) => Number(b === 'id' || !!fb.unique) - Number(a === 'id' || !!fa.unique));
  for (const [name, field] of sorted) unique[name] = { ...baseValue(field), description: fieldHelp(name, field) };
  defs[`unique:${namespace}`] = { type: 'object', properties: unique, additionalProperties: false };

  // Data keys at the query root: a selection (null / nested object) for reads, a value for writes.
  const data: Record<string, JsonSchema> = {};
  for (const [name, field] of Object.entries(model.fields ?? {})) {
    const options: JsonSchema[] = [{ type: 'null', description: 'return this field' }];
    const value = baseValue(field);
    if (Object.keys(value).length > 0) options.push(value);
    else options.push({});
    if (field.type === 'ref' && field.to && findModel(d, field.to)) options.push({ $ref: ref('select', field.to) });
    data[name] = { description: fieldHelp(name, field), anyOf: options };
  }
  for (const [name, rel] of Object.entries(model.relations ?? {})) {
    data[name] = { description: `${name}: many ${rel.many} (via ${rel.via})`, anyOf: [{ type: 'null' }, findModel(d, rel.many) ? { $ref: ref('select', rel.many) } : { type: 'object' }] };
  }
  defs[`data:${namespace}`] = { type: 'object', properties: data };
}
