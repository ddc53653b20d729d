/**
 * Builds the JSON Schema that drives completion and validation in the query editor from a server's
 * `system.Schema.describe` (PROTOCOL.md 11): namespaces, the intents of each, `__meta__` keys and
 * their shapes, field names as data keys, filter keys with every lookup suffix, ordering entries
 * with '-', uniqueObject fields. Framework-free: Monaco only receives the finished object.
 *
 * Shape: a root `if/then/else` tells a single query (has `__meta__`) from a multi-query; a single
 * query holds one `if/then` per namespace, keyed on `__meta__.namespace` (+ `schema`), whose `then`
 * lists that namespace's keys. Monaco's JSON service follows if/then for completions as well.
 */
import { snakeIntentOf } from '../../shared/intent-key.ts';
import type { DescribeResult } from '../../shared/protocol.ts';
import { findModel, listNamespaces, type NamespaceInfo } from './describe-index.ts';
import type { JsonSchema } from './json-schema-type.ts';
import { modelDefinitions } from './model-schema.ts';

export type { JsonSchema } from './json-schema-type.ts';

const INTENT_HELP: Record<string, string> = {
  retrieve: 'Records matching filter/exclude/search, ordered and paged',
  retrieveOne: 'The one record matching uniqueObject',
  create: 'Create a record from the data keys',
  update: 'Update the record matching uniqueObject with the data keys',
  delete: 'Delete the record matching uniqueObject',
  count: 'How many records match',
};

function genericMeta(namespaces: NamespaceInfo[]): JsonSchema {
  const unique = [...new Set(namespaces.map((n) => n.namespace))];
  const kinds = (ns: string) => namespaces.filter((n) => n.namespace === ns).map((n) => `${n.kind}: ${n.intents.join(', ')}`).join(' · ');
  const aggregate: JsonSchema = {
    type: 'object',
    properties: { count: { type: 'string' }, sum: { type: 'string' }, avg: { type: 'string' }, min: { type: 'string' }, max: { type: 'string' } },
    additionalProperties: false,
  };
  const properties: Record<string, JsonSchema> = {
    namespace: { type: 'string', description: '<app>.<Model>, <app>.<Controller> or <app>.<Collection>', enum: unique, enumDescriptions: unique.map(kinds) },
    intent: { type: 'string', description: 'What to do: retrieve, retrieveOne, create, update, delete, count, or a controller intent' },
    schema: { enum: ['model', 'controller', 'nosql'], description: 'The processor; model when absent' },
    authenticationClass: { enum: ['jwt', 'session'], description: 'How the caller is identified' },
    uniqueObject: { type: 'object', description: 'Selects exactly one record (retrieveOne, update, delete)' },
    filter: { type: 'object', description: 'Every entry must match: field, field__lookup, ref__field' },
    exclude: { type: 'object', description: 'Removes matching records; a null value removes that field from the result' },
    search: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'], additionalProperties: false, description: 'Case-insensitive search over the search fields' },
    ordering: { type: 'array', items: { type: 'string' }, description: "Field paths, '-' for descending" },
    cache: { type: 'object', properties: { enabled: { type: 'boolean' } }, additionalProperties: false },
    limit: { type: 'integer', minimum: 0, description: 'Default 100, at most the server maximum' },
    offset: { type: 'integer', minimum: 0 },
    draw: { type: 'integer', description: 'Echoed back in __extras__.draw' },
    groupBy: {
      description: 'Field paths, or {by, aggregates}',
      anyOf: [
        { type: 'array', items: { type: 'string' } },
        { type: 'object', properties: { by: { type: 'array', items: { type: 'string' } }, aggregates: { type: 'object', additionalProperties: aggregate } }, required: ['by'], additionalProperties: false },
      ],
    },
    return: { type: 'object', description: 'Fields a mutation returns' },
    sideEffects: {
      type: 'object',
      properties: { multipartFormUpload: { type: 'boolean' }, fileFieldMapping: { type: 'object', additionalProperties: { type: 'string' } } },
      additionalProperties: false,
    },
    render: { enum: ['only:data'], description: 'Answer the payload alone on success' },
    debug: { type: 'boolean', description: 'Error details in development mode' },
    comment: { description: 'Free-form notes; ignored by the server' },
  };
  // The snake_case spellings are accepted on the wire; valid but not offered.
  const aliases: Record<string, string> = {
    unique_object: 'uniqueObject',
    group_by: 'groupBy',
    side_effects: 'sideEffects',
    authentication_class: 'authenticationClass',
  };
  for (const [snake, camel] of Object.entries(aliases)) properties[snake] = { ...properties[camel], doNotSuggest: true };
  return { type: 'object', required: ['namespace', 'intent'], properties, additionalProperties: false };
}

function intentSchema(intents: string[]): JsonSchema {
  const snake = intents.map(snakeIntentOf).filter((s) => !intents.includes(s));
  return {
    anyOf: [
      { enum: intents, enumDescriptions: intents.map((i) => INTENT_HELP[i] ?? '') },
      ...(snake.length ? [{ type: 'string', pattern: `^(${snake.join('|')})$` }] : []),
    ],
  };
}

function namespaceCondition(info: NamespaceInfo): JsonSchema {
  const schemaCheck: JsonSchema = info.kind === 'model' ? { const: 'model' } : { const: info.kind };
  return {
    properties: {
      __meta__: {
        properties: { namespace: { const: info.namespace }, schema: schemaCheck },
        required: info.kind === 'model' ? ['namespace'] : ['namespace', 'schema'],
      },
    },
    required: ['__meta__'],
  };
}

function namespaceThen(info: NamespaceInfo, definitions: Record<string, JsonSchema>): JsonSchema {
  const ref = (kind: string) => ({ $ref: `#/definitions/${kind}:${info.namespace}` });
  const data = definitions[`data:${info.namespace}`];
  if (info.kind !== 'model' || !data) {
    return { properties: { __meta__: { properties: { intent: intentSchema(info.intents) } } } };
  }
  return {
    properties: {
      // Data keys are listed here, beside __meta__, because `additionalProperties: false` only
      // sees the keys of its own schema object.
      ...data.properties,
      __meta__: {
        properties: {
          intent: intentSchema(info.intents),
          filter: ref('filter'),
          exclude: ref('filter'),
          uniqueObject: ref('unique'),
          unique_object: { ...ref('unique'), doNotSuggest: true },
          ordering: ref('ordering'),
          return: ref('select'),
          groupBy: { anyOf: [ref('groupPaths'), { type: 'object' }] },
        },
      },
    },
    // Data keys must be fields: a misspelled one is flagged while typing.
    additionalProperties: false,
  };
}

export function buildQuerySchema(d: DescribeResult): JsonSchema {
  const namespaces = listNamespaces(d);
  const definitions: Record<string, JsonSchema> = {};
  for (const info of namespaces) {
    if (info.kind !== 'model') continue;
    const model = findModel(d, info.namespace);
    if (model) modelDefinitions(d, info.namespace, model, definitions);
  }
  const conditions: JsonSchema[] = namespaces.map((info) => ({ if: namespaceCondition(info), then: namespaceThen(info, definitions) }));
  // The data keys now live inside each namespace's `then`; no $ref points at them.
  for (const key of Object.keys(definitions)) if (key.startsWith('data:')) delete definitions[key];
  definitions.meta = genericMeta(namespaces);
  definitions.single = {
    type: 'object',
    required: ['__meta__'],
    properties: { __meta__: { $ref: '#/definitions/meta' } },
    allOf: conditions,
  };
  definitions.rootMeta = {
    type: 'object',
    properties: {
      atomic: { type: 'boolean', description: 'All subqueries in one transaction' },
      authenticationClass: { enum: ['jwt', 'session'] },
    },
    additionalProperties: false,
  };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    description: `JQL query for ${d.workspace ?? 'a workspace'} (server ${d.version ?? '?'})`,
    type: 'object',
    definitions,
    properties: {
      __meta__: { $ref: '#/definitions/meta', description: 'A single query: namespace, intent and read options' },
      __root_meta__: { $ref: '#/definitions/rootMeta', description: 'A multi-query: options for all subqueries' },
    },
    if: { required: ['__meta__'] },
    then: { $ref: '#/definitions/single' },
    else: { properties: { __root_meta__: { $ref: '#/definitions/rootMeta' } }, additionalProperties: { $ref: '#/definitions/single' } },
  };
}
