/**
 * Text matching in SQL, for every processor (docs/protocol.md "`__meta__` keys"): the text lookups of `filter`/`exclude`
 * and the substring match of `search`. The model and the nosql processors both compile their text
 * conditions here, so `contains` means the same on a model field and on a document path.
 *
 * The `i` forms use LIKE (case-insensitive for ASCII in SQLite), the others GLOB (case-sensitive).
 * The value is always one bound parameter whose wildcards are escaped: `%`, `_`, `*`, `?` and `[`
 * match literally.
 */
import type { FilterLookup } from '../../shared/protocol.ts';
import type { SqlParam } from '../db/sql-session.ts';
import { fail } from '../errors.ts';

export type TextLookup = Extract<FilterLookup, 'iexact' | 'contains' | 'icontains' | 'startswith' | 'istartswith' | 'endswith' | 'iendswith'>;

export const TEXT_LOOKUPS: ReadonlySet<FilterLookup> = new Set<TextLookup>(['iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith']);

/**
 * The condition that `expression` (an SQL expression of text) matches `value` under `lookup`; the
 * pattern is pushed onto `params`. `search` is `icontains` over each search field.
 */
export function textMatch(expression: string, lookup: TextLookup, value: string, params: SqlParam[]): string {
  switch (lookup) {
    case 'iexact':
      return like(expression, escapeLike(value), params);
    case 'icontains':
      return like(expression, `%${escapeLike(value)}%`, params);
    case 'istartswith':
      return like(expression, `${escapeLike(value)}%`, params);
    case 'iendswith':
      return like(expression, `%${escapeLike(value)}`, params);
    case 'contains':
      return glob(expression, `*${escapeGlob(value)}*`, params);
    case 'startswith':
      return glob(expression, `${escapeGlob(value)}*`, params);
    case 'endswith':
      return glob(expression, `*${escapeGlob(value)}`, params);
  }
}

function like(expression: string, pattern: string, params: SqlParam[]): string {
  params.push(pattern);
  return `${expression} LIKE ? ESCAPE '\\'`;
}

function glob(expression: string, pattern: string, params: SqlParam[]): string {
  params.push(pattern);
  return `${expression} GLOB ?`;
}

/**
 * The longest value a text lookup or search takes. SQLite refuses LIKE and GLOB patterns over 50,000
 * bytes when it meets a row; this bound keeps every escaped pattern below that (a character is at
 * most 4 bytes, an escaped one 2), so a longer value is an invalid_request, not an internal error.
 */
export const MAX_PATTERN_CHARS = 10_000;

function checkPattern(value: string): void {
  if (value.length > MAX_PATTERN_CHARS) fail('invalid_request', `A text to match may hold at most ${MAX_PATTERN_CHARS} characters`);
}

/** `\` escapes LIKE's wildcards (the statements say `ESCAPE '\'`). */
export function escapeLike(value: string): string {
  checkPattern(value);
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** GLOB has no escape character: brackets make its wildcards literal. */
export function escapeGlob(value: string): string {
  checkPattern(value);
  return value.replace(/[*?[]/g, (c) => `[${c}]`);
}
