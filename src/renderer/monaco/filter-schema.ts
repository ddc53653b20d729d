/**
 * The JSON Schema of a stream subscription's `filter` (docs/protocol.md "Streams"): the same keys and lookups as
 * a query's `__meta__.filter` on that model (model-schema.ts), so the filter box completes and
 * checks exactly like the query editor. A NoSQL collection or an unknown namespace gets none.
 */
import type { DescribeResult } from '../../shared/protocol.ts';
import { findModel } from './describe-index.ts';
import type { JsonSchema } from './json-schema-type.ts';
import { withKeyCompletions } from './key-completion.ts';
import { modelDefinitions } from './model-schema.ts';

export function buildFilterSchema(d: DescribeResult, namespace: string): JsonSchema | null {
  const model = findModel(d, namespace);
  if (!model) return null;
  const definitions: Record<string, JsonSchema> = {};
  modelDefinitions(d, namespace, model, definitions);
  const filter = definitions[`filter:${namespace}`];
  if (!filter) return null;
  return withKeyCompletions({ $schema: 'http://json-schema.org/draft-07/schema#', description: `Filter on ${namespace}`, ...filter });
}
