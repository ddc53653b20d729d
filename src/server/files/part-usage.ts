/**
 * Refuses file parts that no query of the request uses (PROTOCOL.md 9.1), before anything is stored:
 * a part is used when a model `create`/`update` maps a field to it in `sideEffects.fileFieldMapping`,
 * or when a controller intent receives it. A controller class declares the parts of its intents in a
 * static `files` map (`{"upload": ["file"]}`, `"*"` for any number of parts); a class without that
 * map receives every part.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { ControllerDef } from '../context.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import { parseMeta, type ParsedMeta } from '../query/meta.ts';
import { isPlainObject } from '../query/normalize.ts';

export const ANY_PART = '*';

export function checkPartUsage(body: JsonValue, parts: string[], controllers: ReadonlyMap<string, ControllerDef>): void {
  if (parts.length === 0) return;
  const used = new Set<string>();
  for (const meta of metasOf(body)) {
    const mapped = Object.values(meta.fileFieldMapping ?? {});
    if (meta.schema === 'model' && (meta.intent === 'create' || meta.intent === 'update')) mapped.forEach((part) => used.add(part));
    if (meta.schema !== 'controller') continue;
    mapped.forEach((part) => used.add(part));
    // `meta.intent` and the `files` map share the canonical intent key.
    const declared = controllers.get(meta.namespace)?.files;
    const names = declared ? (declared.get(meta.intent) ?? []) : [ANY_PART];
    if (names.includes(ANY_PART)) return;
    names.forEach((part) => used.add(part));
  }
  const unknown = parts.filter((part) => !used.has(part));
  if (unknown.length === 0) return;
  throw new JqlFailure(
    unknown.map((part) =>
      jqlError('validation_error', `Part "${part}" is not used by the query: map a file field to it in sideEffects.fileFieldMapping`, {
        field: part,
        path: ['parts', part],
      }),
    ),
  );
}

/** The `__meta__` of a single query or of each subquery; malformed ones are left to the dispatcher. */
function metasOf(body: JsonValue): ParsedMeta[] {
  if (!isPlainObject(body)) return [];
  const documents = Object.hasOwn(body, '__meta__') ? [body] : Object.entries(body).flatMap(([key, value]) => (key === '__root_meta__' ? [] : [value]));
  const metas: ParsedMeta[] = [];
  for (const document of documents) {
    if (!isPlainObject(document)) continue;
    try {
      metas.push(parseMeta(document.__meta__));
    } catch {
      // The dispatcher reports it with the right envelope.
    }
  }
  return metas;
}
