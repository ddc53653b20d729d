/**
 * Hands the JSON schemas to Monaco's JSON service. Monaco takes one list for all models, so the
 * editors that need a schema register theirs here under a key: the query tabs (one schema per
 * connection with a describe, matched to the models of its tabs) and the stream inspector's filter
 * box. A connection without describe gets no schema, i.e. plain JSON editing.
 */
import type { DescribeResult } from '../../shared/protocol.ts';
import { buildQuerySchema } from './jql-schema.ts';
import type { JsonSchema } from './json-schema-type.ts';
import { jsonDefaults } from './monaco.ts';
import { tabModelUri } from './tab-models.ts';

interface SchemaEntry {
  uri: string;
  fileMatch: string[];
  schema: object;
}

const cache = new WeakMap<DescribeResult, object>();
const groups = new Map<string, SchemaEntry[]>();

function publish(): void {
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

export function applySchemas(describes: Map<string, DescribeResult>, tabs: Array<{ id: string; connectionId: string }>): void {
  const schemas = [...describes].flatMap(([connectionId, describe]) => {
    const fileMatch = tabs.filter((t) => t.connectionId === connectionId).map((t) => tabModelUri(t.id).toString());
    if (fileMatch.length === 0) return [];
    let schema = cache.get(describe);
    if (!schema) {
      schema = buildQuerySchema(describe) as object;
      cache.set(describe, schema);
    }
    return [{ uri: `inmemory://jql/schema/${encodeURIComponent(connectionId)}.json`, fileMatch, schema }];
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
