/**
 * The shape of a single query (issue 14.2): everything about it that decides how it is parsed,
 * checked and compiled, and none of its values. Two queries of one shape differ only in the values of
 * their uniqueObject, filter and exclude entries and in limit, offset, draw and comment, which a cached
 * plan binds afresh (plan-cache.ts). Keys are taken as sent (camelCase and snake_case make two shapes).
 *
 * Only the reads a plan can serve have a shape: model retrieve (without search, groupBy or the
 * answer cache), retrieveOne and count. Anything else answers null and takes the full path.
 *
 * Two different queries must never share a shape, or one would run with the other's plan: every name
 * ends with a separator no name may contain, every list is preceded by its length, and every other
 * value is written as JSON (which escapes the separator).
 */
import type { JsonValue } from '../../shared/protocol.ts';
import { isPlainObject } from './normalize.ts';

const READ_INTENTS = new Set(['retrieve', 'retrieveOne', 'retrieve_one', 'count']);
/** Keys whose values a plan binds per request: only whether they are there is part of the shape. */
const BOUND = new Set(['limit', 'offset', 'draw', 'comment']);
/** Keys whose entries' values a plan binds per request: their keys are the shape. */
const ENTRIES = new Set(['filter', 'unique_object', 'uniqueObject', 'exclude']);
/** Keys a plan does not serve: the SQL depends on their values, or another mechanism answers. */
// seeAs and whyNot: the request's caller and the answer's kind are decided before and outside a plan.
const UNPLANNED = new Set(['search', 'group_by', 'groupBy', 'cache', 'side_effects', 'sideEffects', 'see_as', 'seeAs', 'why_not', 'whyNot']);

const SEP = '\u0000';

export function shapeOf(document: JsonValue): string | null {
  if (!isPlainObject(document)) return null;
  const meta = document.__meta__;
  if (!isPlainObject(meta)) return null;
  if (!READ_INTENTS.has(meta.intent as string) || (meta.schema !== undefined && meta.schema !== 'model')) return null;
  let shape = '';
  let keys = 0;
  for (const key in meta) {
    if (key.includes(SEP) || UNPLANNED.has(key)) return null;
    keys++;
    shape += key + SEP;
    const value = meta[key] as JsonValue;
    if (BOUND.has(key)) continue;
    if (ENTRIES.has(key)) {
      if (!isPlainObject(value)) return null;
      let entries = '';
      let count = 0;
      for (const entry in value) {
        if (entry.includes(SEP)) return null;
        count++;
        // `exclude: {"field": null}` removes the field from the answer: which entries are null is shape.
        entries += entry + (key === 'exclude' && value[entry] === null ? `${SEP}n${SEP}` : `${SEP}v${SEP}`);
      }
      shape += count + SEP + entries;
    } else shape += JSON.stringify(value) + SEP;
  }
  shape = keys + SEP + shape;
  // The selection: its keys and nesting are all there is to it.
  for (const key in document) {
    if (key === '__meta__') continue;
    if (key.includes(SEP)) return null;
    shape += key + SEP + JSON.stringify(document[key]) + SEP;
  }
  return shape;
}
