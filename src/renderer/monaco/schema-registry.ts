/**
 * Hands the JSON schemas to Monaco's JSON service: one schema per connection that has a describe,
 * matched to the models of the tabs on that connection. A connection without describe gets no
 * schema, i.e. plain JSON editing.
 */
import type { DescribeResult } from '../../shared/protocol.ts';
import { buildQuerySchema } from './jql-schema.ts';
import { jsonDefaults } from './monaco.ts';
import { tabModelUri } from './tab-models.ts';

const cache = new WeakMap<DescribeResult, object>();

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
  jsonDefaults.setDiagnosticsOptions({
    validate: true,
    allowComments: false,
    enableSchemaRequest: false,
    schemaValidation: 'warning',
    trailingCommas: 'error',
    comments: 'error',
    schemas,
  });
}
