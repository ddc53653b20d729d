/**
 * Hands the JSON schemas to Monaco's JSON service. Monaco takes one list for all models, so the
 * editors that need a schema register theirs here under a key: the query tabs (one schema per
 * connection with a describe, matched to the models of its tabs) and the stream inspector's filter
 * box. A connection without describe gets no schema, i.e. plain JSON editing.
 */
import type { DescribeResult } from '../../shared/protocol.ts';
import { buildQuerySchema, LAZY_SCHEMA_ABOVE } from './jql-schema.ts';
import { listNamespaces } from './describe-index.ts';
import type { JsonSchema } from './json-schema-type.ts';
import { jsonDefaults } from './monaco.ts';
import { tabModelUri } from './tab-models.ts';

interface SchemaEntry {
  uri: string;
  fileMatch: string[];
  schema: object;
}

/** Per describe: its schema for each set of namespaces in use (one entry, '', unless it is large). */
const cache = new WeakMap<DescribeResult, { large: boolean; byUse: Map<string, object> }>();
const groups = new Map<string, SchemaEntry[]>();
let published: string | null = null;

function schemaFor(describe: DescribeResult, inUse: string[]): object {
  let entry = cache.get(describe);
  if (!entry) {
    entry = { large: listNamespaces(describe).length > LAZY_SCHEMA_ABOVE, byUse: new Map() };
    cache.set(describe, entry);
  }
  // A small describe has one schema; a large one, one per set of namespaces the tabs name.
  const key = entry.large ? inUse.join('\n') : '';
  let schema = entry.byUse.get(key);
  if (!schema) {
    schema = buildQuerySchema(describe, new Set(inUse)) as object;
    if (entry.byUse.size > 8) entry.byUse.clear();
    entry.byUse.set(key, schema);
  }
  return schema;
}

function publish(): void {
  // Handing Monaco the same schemas again makes it validate every model again: skip it.
  const identity = JSON.stringify([...groups].map(([k, entries]) => [k, entries.map((e) => [e.uri, e.fileMatch, ids.get(e.schema) ?? ids.set(e.schema, nextId++).get(e.schema)])]));
  if (identity === published) return;
  published = identity;
  jsonDefaults.setDiagnosticsOptions({
    validate: true,
    allowComments: false,
    enableSchemaRequest: false,
    schemaValidation: 'warning',
    trailingCommas: 'error',
    comments: 'error',
    schemas: [...groups.values()].flat(),
  });
}

const ids = new WeakMap<object, number>();
let nextId = 1;

/** `namespaces`: what each tab's document names, for a large describe's lazy schema. */
export function applySchemas(describes: Map<string, DescribeResult>, tabs: Array<{ id: string; connectionId: string; namespaces?: string[] }>): void {
  const schemas = [...describes].flatMap(([connectionId, describe]) => {
    const mine = tabs.filter((t) => t.connectionId === connectionId);
    const fileMatch = mine.map((t) => tabModelUri(t.id).toString());
    if (fileMatch.length === 0) return [];
    const inUse = [...new Set(mine.flatMap((t) => t.namespaces ?? []))].sort();
    return [{ uri: `inmemory://jql/schema/${encodeURIComponent(connectionId)}.json`, fileMatch, schema: schemaFor(describe, inUse) }];
  });
  groups.set('tabs', schemas);
  publish();
}

/** One model's own schema (e.g. a filter box); null removes it. */
export function setModelSchema(key: string, modelUri: string, schema: JsonSchema | null): void {
  if (schema) groups.set(key, [{ uri: `inmemory://jql/schema/${encodeURIComponent(key)}.json`, fileMatch: [modelUri], schema: schema as object }]);
  else groups.delete(key);
  publish();
}
