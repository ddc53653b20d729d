/**
 * How accepting a key in the editor behaves. Monaco's JSON completion inserts a key with a value
 * built from the key's schema: a lone `enum`/`const` value is pre-filled, several make it insert
 * `"key": ` and open the value's suggestions, and a schema with no type at its top (an `anyOf`) gets
 * the bare `"key"`, without the colon. This pass gives every property schema whose values are
 * listed only inside `anyOf` those values as `examples`, so accepting such a key inserts `"key": `
 * and opens its values (one value is pre-filled). Run once over a finished schema.
 */
import type { JsonSchema } from './json-schema-type.ts';

const hasOwnValue = (s: JsonSchema) =>
  s.type !== undefined || s.enum !== undefined || s.const !== undefined || s.default !== undefined || s.examples !== undefined || s.defaultSnippets !== undefined || s.$ref !== undefined || s.properties !== undefined || s.items !== undefined;

/** The values an `anyOf` lists: its enums, consts and `null`. */
function listedValues(schema: JsonSchema): unknown[] {
  const values: unknown[] = [];
  for (const branch of schema.anyOf ?? []) {
    if (branch.enum) values.push(...branch.enum);
    if (branch.const !== undefined) values.push(branch.const);
    if (branch.type === 'null') values.push(null);
  }
  return [...new Set(values)];
}

export function withKeyCompletions(schema: JsonSchema, seen = new Set<JsonSchema>()): JsonSchema {
  if (seen.has(schema)) return schema;
  seen.add(schema);
  for (const property of Object.values(schema.properties ?? {})) {
    if (!hasOwnValue(property) && property.anyOf) {
      const values = listedValues(property);
      if (values.length > 0) property.examples = values;
    }
  }
  const children = [
    ...Object.values(schema.properties ?? {}),
    ...Object.values(schema.patternProperties ?? {}),
    ...Object.values(schema.definitions ?? {}),
    ...(schema.anyOf ?? []),
    ...(schema.allOf ?? []),
    ...[schema.if, schema.then, schema.else, schema.items].filter((s): s is JsonSchema => s !== undefined),
    ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
  ];
  for (const child of children) withKeyCompletions(child, seen);
  return schema;
}
