/**
 * Builds the JSON Schema that drives completion and validation in the query editor from a server's
 * `system.Schema.describe` (docs/protocol.md "describe"): namespaces, the intents of each, `__meta__` keys and
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
import { withKeyCompletions } from './key-completion.ts';
import { modelDefinitions } from './model-schema.ts';
import { META_ALIASES, META_HELP, MODEL_INTENT_HELP, ROOT_META_HELP } from './protocol-help.ts';

export type { JsonSchema } from './json-schema-type.ts';

/** The sentence completion shows for a `__meta__` key (protocol-help.ts holds them all). */
const about = (key: string): string => META_HELP[key]?.text ?? '';

/**
 * Above this many namespaces the schema is built lazily: full definitions only for the namespaces
 * the tabs use, and the first OFFERED_NAMESPACES (plus those in use) as completions. A describe of
 * 100,000 models otherwise makes a schema Monaco's JSON worker cannot digest (issue 22.6).
 */
export const LAZY_SCHEMA_ABOVE = 2_000;
export const OFFERED_NAMESPACES = 1_000;

function genericMeta(namespaces: readonly NamespaceInfo[]): JsonSchema {
  // One pass: a namespace can be a model and a collection at once (each kind is listed).
  const byName = new Map<string, string[]>();
  for (const n of namespaces) {
    const kinds = byName.get(n.namespace) ?? [];
    kinds.push(`${n.kind}: ${n.intents.join(', ')}`);
    byName.set(n.namespace, kinds);
  }
  const unique = [...byName.keys()];
  const kinds = (ns: string) => byName.get(ns)!.join(' · ');
  const aggregate: JsonSchema = {
    type: 'object',
    properties: { count: { type: 'string' }, sum: { type: 'string' }, avg: { type: 'string' }, min: { type: 'string' }, max: { type: 'string' } },
    additionalProperties: false,
  };
  const properties: Record<string, JsonSchema> = {
    namespace: { type: 'string', description: about('namespace'), enum: unique, enumDescriptions: unique.map(kinds) },
    // Proposed by the namespace's own branch (its intents) or, for an unknown namespace, the fallback
    // branch of buildQuerySchema: a proposal here would win over both and insert an empty string.
    intent: { type: 'string', description: about('intent'), doNotSuggest: namespaces.length > 0 },
    schema: { enum: ['model', 'controller', 'nosql'], description: about('schema') },
    authenticationClass: { enum: ['jwt', 'session'], description: about('authenticationClass') },
    uniqueObject: { type: 'object', description: about('uniqueObject') },
    filter: { type: 'object', description: about('filter') },
    exclude: { type: 'object', description: about('exclude') },
    search: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'], additionalProperties: false, description: about('search') },
    ordering: { type: 'array', items: { type: 'string' }, description: about('ordering') },
    cache: { type: 'object', properties: { enabled: { type: 'boolean' } }, additionalProperties: false, description: about('cache') },
    limit: { type: 'integer', minimum: 0, description: about('limit') },
    offset: { type: 'integer', minimum: 0, description: about('offset') },
    draw: { type: 'integer', description: about('draw') },
    groupBy: {
      description: about('groupBy'),
      anyOf: [
        { type: 'array', items: { type: 'string' } },
        { type: 'object', properties: { by: { type: 'array', items: { type: 'string' } }, aggregates: { type: 'object', additionalProperties: aggregate } }, required: ['by'], additionalProperties: false },
      ],
    },
    return: { type: 'object', description: about('return') },
    sideEffects: {
      type: 'object',
      properties: { multipartFormUpload: { type: 'boolean' }, fileFieldMapping: { type: 'object', additionalProperties: { type: 'string' } } },
      additionalProperties: false,
      description: about('sideEffects'),
    },
    render: { enum: ['only:data'], description: about('render') },
    debug: { type: 'boolean', description: about('debug') },
    comment: { description: about('comment') },
  };
  // The snake_case spellings are accepted on the wire; valid but not offered.
  for (const [snake, camel] of Object.entries(META_ALIASES)) properties[snake] = { ...properties[camel], doNotSuggest: true };
  return { type: 'object', required: ['namespace', 'intent'], properties, additionalProperties: false };
}

function intentSchema(intents: string[]): JsonSchema {
  const snake = intents.map(snakeIntentOf).filter((s) => !intents.includes(s));
  return {
    anyOf: [
      { enum: intents, enumDescriptions: intents.map((i) => MODEL_INTENT_HELP[i] ?? '') },
      ...(snake.length ? [{ type: 'string', pattern: `^(${snake.join('|')})$` }] : []),
    ],
  };
}

function namespaceCondition(info: NamespaceInfo): JsonSchema {
  const schemaCheck: JsonSchema = info.kind === 'model' ? { const: 'model' } : { const: info.kind };
  return {
    properties: {
      __meta__: {
        // A condition, not a proposal: completion must not offer (and pre-fill) this namespace's const.
        properties: { namespace: { const: info.namespace, doNotSuggest: true }, schema: { ...schemaCheck, doNotSuggest: true } },
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

const counts = new WeakMap<DescribeResult, number>();

/** For the status bar: how a large describe's completion works ('' for an ordinary one). */
export function lazySchemaNote(d: DescribeResult): string {
  let n = counts.get(d);
  if (n === undefined) counts.set(d, (n = listNamespaces(d).length));
  return n > LAZY_SCHEMA_ABOVE ? ` (${n.toLocaleString('en')} namespaces: completion offers the first ${OFFERED_NAMESPACES.toLocaleString('en')} and those in use)` : '';
}

/** The namespaces a document names (`"namespace": "app.Model"`), for the lazy schema. */
export function namespacesIn(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/"namespace"\s*:\s*"([^"\\]{1,200})"/g)) out.add(m[1]!);
  return [...out].sort();
}

export function buildQuerySchema(d: DescribeResult, inUse: ReadonlySet<string> = new Set()): JsonSchema {
  const all = listNamespaces(d);
  const lazy = all.length > LAZY_SCHEMA_ABOVE;
  const namespaces = lazy ? all.filter((n) => inUse.has(n.namespace)) : all;
  const offered = lazy ? [...namespaces, ...all.slice(0, OFFERED_NAMESPACES)] : all;
  const definitions: Record<string, JsonSchema> = {};
  for (const info of namespaces) {
    if (info.kind !== 'model') continue;
    const model = findModel(d, info.namespace);
    if (model) modelDefinitions(d, info.namespace, model, definitions);
  }
  const conditions: JsonSchema[] = namespaces.map((info) => ({ if: namespaceCondition(info), then: namespaceThen(info, definitions) }));
  // A namespace this server does not have (or none yet): intent is offered as a plain string.
  const known = [...new Set(namespaces.map((n) => n.namespace))];
  if (known.length > 0) conditions.push({
    if: { properties: { __meta__: { properties: { namespace: { enum: known, doNotSuggest: true } }, required: ['namespace'] } } },
    else: { properties: { __meta__: { properties: { intent: { type: 'string', description: about('intent') } } } } },
  });
  // The data keys now live inside each namespace's `then`; no $ref points at them.
  for (const key of Object.keys(definitions)) if (key.startsWith('data:')) delete definitions[key];
  definitions.meta = genericMeta(offered);
  if (lazy) {
    const ns = (definitions.meta.properties as Record<string, JsonSchema>).namespace!;
    ns.description = `${all.length.toLocaleString('en')} namespaces: the first ${OFFERED_NAMESPACES.toLocaleString('en')} and those in use are offered; type any other`;
    // Any name is valid: the server says whether it exists.
    (definitions.meta.properties as Record<string, JsonSchema>).namespace = { anyOf: [ns, { type: 'string' }], description: ns.description };
  }
  definitions.single = {
    type: 'object',
    required: ['__meta__'],
    properties: { __meta__: { $ref: '#/definitions/meta' } },
    allOf: conditions,
  };
  definitions.rootMeta = {
    type: 'object',
    properties: {
      atomic: { type: 'boolean', description: ROOT_META_HELP.atomic?.text },
      authenticationClass: { enum: ['jwt', 'session'] },
    },
    additionalProperties: false,
  };
  return withKeyCompletions({
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
  });
}
