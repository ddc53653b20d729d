/**
 * What an empty result was asked with: the `filter`, `exclude` and `search` of the query (or of the
 * multi-query's subquery) that matched nothing, read from the document as sent. Framework-free.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import { parseJsonKeepingNumbers, stringifyKeepingNumbers } from '../../../shared/big-number.ts';

export interface AppliedConditions {
  /** `[key, value]` pairs in document order: `filter`, `exclude`, `search`, `uniqueObject`. */
  entries: Array<[string, JsonValue]>;
}

const CONDITION_KEYS = ['filter', 'exclude', 'search', 'uniqueObject', 'unique_object'];

const isObject = (v: unknown): v is Record<string, JsonValue> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The conditions of the query `section` names (null: a single query); null when the body is not a query. */
export function appliedConditions(body: string | undefined, section: string | null): AppliedConditions | null {
  if (!body) return null;
  let document: unknown;
  try {
    // An id above 2^53 in a filter is shown as typed, not as a double's rounding of it.
    document = parseJsonKeepingNumbers(body);
  } catch {
    return null;
  }
  const query = section === null ? document : isObject(document) ? document[section] : undefined;
  if (!isObject(query) || !isObject(query.__meta__)) return null;
  const meta = query.__meta__;
  return { entries: CONDITION_KEYS.filter((key) => Object.hasOwn(meta, key)).map((key) => [key, meta[key] as JsonValue]) };
}

/** The conditions as the view shows them: `"filter": {...}` lines, numbers with the digits typed. */
export function conditionsText(entries: AppliedConditions['entries']): string {
  return entries.map(([key, value]) => `"${key}": ${stringifyKeepingNumbers(value, 2)}`).join(',\n');
}
