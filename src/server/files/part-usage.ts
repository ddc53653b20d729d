/**
 * Which file parts of a `PUT /jql` the queries use (docs/protocol.md "Multipart uploads"), known before any part is
 * stored: a part is used when a model `create`/`update` maps a field to it in
 * `sideEffects.fileFieldMapping`, or when a controller intent receives it. A controller declares the
 * parts of its intents in a static `files` map (`{"upload": ["file"]}`, `"*"` for any number of
 * parts), read under the canonical intent key; a controller without that map receives every part.
 */
import type { ControllerDef } from '../context.ts';
import type { ParsedMeta } from '../query/meta.ts';

export const ANY_PART = '*';

export interface PartUsage {
  /** Some query takes any part. */
  any: boolean;
  names: ReadonlySet<string>;
}

export function partsUsedBy(metas: readonly ParsedMeta[], controllers: ReadonlyMap<string, ControllerDef>): PartUsage {
  const names = new Set<string>();
  for (const meta of metas) {
    const mapped = Object.values(meta.fileFieldMapping ?? {});
    if (meta.schema === 'model' && (meta.intent === 'create' || meta.intent === 'update')) mapped.forEach((part) => names.add(part));
    if (meta.schema !== 'controller') continue;
    mapped.forEach((part) => names.add(part));
    const declared = controllers.get(meta.namespace)?.files;
    const parts = declared ? (declared.get(meta.intent) ?? []) : [ANY_PART];
    if (parts.includes(ANY_PART)) return { any: true, names };
    parts.forEach((part) => names.add(part));
  }
  return { any: false, names };
}
