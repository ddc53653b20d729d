// Document paths as sent (`author.name__icontains`): split into key segments and a lookup, then
// turned into a JSON path whose keys are quoted and escaped. The JSON path is only ever bound as an
// SQL parameter, so request text never becomes SQL; escaping keeps odd keys addressable and valid.
import { FILTER_LOOKUPS, type FilterLookup } from '../../../shared/protocol.ts';
import { fail, invalidRequest, type ErrorPath } from '../../errors.ts';

/** Server-assigned record keys, stored as columns rather than in the document. */
export const RESERVED_KEYS = ['id', 'created_at', 'updated_at'] as const;
export type ReservedKey = (typeof RESERVED_KEYS)[number];

export type Target = { kind: 'column'; column: ReservedKey } | { kind: 'document'; jsonPath: string };

const LOOKUPS = new Set<string>(FILTER_LOOKUPS);

export function isReservedKey(key: string): key is ReservedKey {
  return (RESERVED_KEYS as readonly string[]).includes(key);
}

/**
 * The suffix after the last `__` is a lookup when it is a plain lowercase word, so a typo such as
 * `name__icontain` is `invalid_lookup` rather than a silent path. A key that itself holds `__`
 * (`meta__x`) stays reachable with an explicit lookup: `meta__x__exact`.
 */
export function splitLookup(key: string, errorPath: ErrorPath): { path: string; lookup: FilterLookup | null } {
  const at = key.lastIndexOf('__');
  const suffix = at > 0 && key[at - 1] !== '.' ? key.slice(at + 2) : '';
  if (!/^[a-z]+$/.test(suffix)) return { path: key, lookup: null };
  // `field` is the document path the lookup was put on; `path` keeps the key as sent (docs/protocol.md "Errors").
  if (!LOOKUPS.has(suffix)) fail('invalid_lookup', `Unknown lookup "${suffix}" in "${key}"`, { field: key.slice(0, at), path: errorPath });
  return { path: key.slice(0, at), lookup: suffix as FilterLookup };
}

/** `id`, `created_at` and `updated_at` name the columns; every other path reaches into the document. */
export function targetOf(path: string, errorPath: ErrorPath): Target {
  if (isReservedKey(path)) return { kind: 'column', column: path };
  const segments = path.split('.');
  if (segments.some((segment) => segment === '')) invalidRequest(`Path "${path}" has an empty segment`, errorPath);
  return { kind: 'document', jsonPath: jsonPath(segments) };
}

/**
 * `$."a"."b"`. SQLite ends a quoted key at the first `"` and decodes JSON escapes inside it, so quotes,
 * backslashes, control characters and lone surrogates are written as `\uXXXX`.
 */
export function jsonPath(segments: string[]): string {
  return `$${segments.map((segment) => `."${segment.replace(UNSAFE, escapeChar)}"`).join('')}`;
}

const UNSAFE = /["\\\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeChar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
