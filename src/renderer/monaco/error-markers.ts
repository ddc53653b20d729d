/**
 * Where each response error belongs in the query text: the key its `path` names, else a key named
 * by its `field`, else the nearest enclosing key. Pure offsets; query-editor turns them into Monaco
 * markers. For a multi-query, an error's path is looked up inside its subquery's key.
 */
import type { JqlError } from '../../shared/protocol.ts';
import { SHOWN_ERRORS } from '../response/count-caps.ts';
import { findByPath, listKeys, sameKey, type JsonPath, type KeyLocation } from './json-locate.ts';

export interface ErrorMarkerSpec {
  /** Index into the list of errors given, so the viewer's list can point at its marker. */
  index: number;
  start: number;
  end: number;
  message: string;
  code: string;
  /** False when only an enclosing key (or the document start) could be found. */
  exact: boolean;
}

export interface SectionError {
  section: string | null;
  error: JqlError;
}

const startsWithPath = (path: JsonPath, prefix: JsonPath) =>
  prefix.length <= path.length && prefix.every((p, i) => sameKey(p, path[i]!));

/** A key that names the field: `priorty`, `priorty__gte`, `priorty.x`, `assignee__priorty`. */
function namesField(key: string, field: string): 'exact' | 'part' | null {
  if (sameKey(key, field)) return 'exact';
  const parts = key.split(/__|\./);
  if (parts.some((p) => sameKey(p, field))) return 'part';
  return null;
}

function locate(keys: KeyLocation[], text: string, item: SectionError): { at: KeyLocation | null; exact: boolean } {
  const { section, error } = item;
  const bases: JsonPath[] = section !== null ? [[section], [section, '__meta__']] : [[], ['__meta__']];
  const path = error.path ?? [];
  if (path.length > 0) {
    for (const base of bases) {
      const hit = findByPath(keys, [...base, ...path]);
      if (hit) return { at: hit, exact: true };
    }
  }
  const scope = section !== null ? keys.filter((k) => startsWithPath(k.path, [section])) : keys;
  if (error.field) {
    const exact = scope.find((k) => namesField(k.key, error.field!) === 'exact');
    if (exact) return { at: exact, exact: true };
    const part = scope.find((k) => namesField(k.key, error.field!) === 'part');
    if (part) return { at: part, exact: true };
  }
  // A value (not a key) may hold the bad name, e.g. an ordering entry "-priorty".
  if (error.field) {
    const needle = JSON.stringify(error.field).slice(1, -1);
    const inValue = scope.find((k) => {
      const value = text.slice(k.valueStart, k.valueEnd);
      return value.startsWith('[') && value.includes(needle);
    });
    if (inValue) return { at: inValue, exact: false };
  }
  // The deepest part of the path that exists, so the marker is at least near the problem.
  for (let n = path.length - 1; n > 0; n--) {
    for (const base of bases) {
      const hit = findByPath(keys, [...base, ...path.slice(0, n)]);
      if (hit) return { at: hit, exact: false };
    }
  }
  const fallback = section !== null ? findByPath(keys, [section]) : findByPath(keys, ['__meta__']);
  return { at: fallback ?? null, exact: false };
}

/**
 * At most this many errors get a marker: Monaco draws and hovers every marker, and 50,000 froze the
 * window for half a minute. The errors list shows as many, the boundary reads no more (count-caps.ts).
 */
export const MAX_ERROR_MARKERS = SHOWN_ERRORS;

export function errorMarkerSpecs(text: string, errors: SectionError[]): ErrorMarkerSpec[] {
  if (errors.length === 0) return [];
  const keys = listKeys(text);
  return errors.slice(0, MAX_ERROR_MARKERS).map((item, index) => {
    const { at, exact } = locate(keys, text, item);
    const prefix = item.section !== null ? `${item.section}: ` : '';
    return {
      index,
      start: at ? at.keyStart : 0,
      end: at ? at.keyEnd : Math.min(1, text.length),
      // The code is shown by Monaco next to the message (marker `code`), so it is not repeated here.
      message: `${prefix}${item.error.message}`,
      code: item.error.code,
      exact,
    };
  });
}
