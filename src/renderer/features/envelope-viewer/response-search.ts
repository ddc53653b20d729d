/**
 * Search inside a response (Ctrl/Cmd+F in the response pane): the matches of one query in the table
 * (cells, in the table's order), in the JSON tree (keys and values, with the nodes to open to show
 * each one, chunk groups included) and in the raw text (character ranges). Case-insensitive, plain
 * text. Framework-free, so 100,000-record answers are tested without a DOM; each list stops at
 * `limit` matches.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import { bigNumberText, isBigNumber, stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import { longTextOf } from '../../response/long-text.ts';
import { LONG_STRING_BYTES } from '../../response/long-strings.ts';
import { DEFAULT_CHUNK, nodeId } from './json-tree-model.ts';
import { cellValue } from './table-model.ts';

export const MATCH_LIMIT = 10_000;

/** What a view is asked to search for, and which of its matches is the current one. */
export interface SearchRequest {
  query: string;
  index: number;
}

/** The props a searchable view takes: the search (null: none) and where it reports its count. */
export interface Searchable {
  search?: SearchRequest | null;
  onMatches?: (count: number) => void;
}

/** The current match of a list: the asked-for index, kept inside the list. */
export function currentOf<T>(matches: readonly T[], search: SearchRequest | null | undefined): T | null {
  if (!search || matches.length === 0) return null;
  return matches[Math.min(search.index, matches.length - 1)]!;
}

/**
 * Characters of a long text (response/long-text.ts) a search reads: its first 1,000,000. Reading all
 * of a 50 MB string would build it whole on the window's thread, the freeze it is kept apart to avoid;
 * the search bar says that long strings were searched in part.
 */
export const SEARCHED_LONG_TEXT_CHARS = 1_000_000;
/** What the search bar says of an answer that holds long texts. */
export const LONG_TEXT_SEARCH_NOTE = `Strings over ${(LONG_STRING_BYTES).toLocaleString('en')} characters are searched in their first ${SEARCHED_LONG_TEXT_CHARS.toLocaleString('en')} characters (Save writes the whole answer to a file).`;

/** The text a value is searched in: strings as they are (a long text's first part), anything else as JSON. */
function searchable(value: JsonValue | undefined): string | null {
  if (value === undefined) return null;
  const long = longTextOf(value);
  if (long) return long.piece(0, SEARCHED_LONG_TEXT_CHARS);
  if (isBigNumber(value)) return bigNumberText(value);
  return typeof value === 'string' ? value : stringifyKeepingNumbers(value);
}

const contains = (text: string | null, needle: string): boolean => text !== null && text.toLowerCase().includes(needle);

export interface CellMatch {
  /** Index into the rows. */
  row: number;
  column: string;
}

/** Cells whose text holds the query, row by row in the table's order, left to right. */
export function tableMatches(rows: readonly JsonValue[], order: readonly number[], columns: readonly string[], query: string, limit = MATCH_LIMIT): CellMatch[] {
  const needle = query.toLowerCase();
  const found: CellMatch[] = [];
  if (needle === '') return found;
  for (const row of order) {
    for (const column of columns) {
      if (!contains(searchable(cellValue(rows[row], column)), needle)) continue;
      found.push({ row, column });
      if (found.length >= limit) return found;
    }
  }
  return found;
}

export interface TreeMatch {
  /** The row's id (json-tree-model's node id). */
  id: string;
  /** The containers and chunk groups to open so that the row shows, outermost first. */
  reveal: string[];
}

/** Tree rows whose key or (scalar) value holds the query, in the tree's order. */
export function treeMatches(root: JsonValue, query: string, chunk = DEFAULT_CHUNK, limit = MATCH_LIMIT): TreeMatch[] {
  const needle = query.toLowerCase();
  const found: TreeMatch[] = [];
  if (needle === '') return found;
  // Depth-first with an explicit stack (a deep answer must not overflow the call stack); each frame
  // points at its parent, and only a match walks up to list what to open.
  type Frame = { value: JsonValue; id: string; label: string | null; parent: Frame | null; group: string | null };
  const revealOf = (frame: Frame): string[] => {
    const open: string[] = [];
    for (let at: Frame | null = frame; at?.parent; at = at.parent) {
      if (at.group !== null) open.push(at.group);
      open.push(at.parent.id);
    }
    return open.reverse();
  };
  const stack: Frame[] = [{ value: root, id: '', label: null, parent: null, group: null }];
  while (stack.length > 0 && found.length < limit) {
    const frame = stack.pop()!;
    const { value, id, label } = frame;
    const container = value !== null && typeof value === 'object';
    if (contains(label, needle) || (!container && contains(searchable(value), needle))) found.push({ id, reveal: revealOf(frame) });
    if (!container) continue;
    const keys = Array.isArray(value) ? null : Object.keys(value);
    const count = keys ? keys.length : (value as JsonValue[]).length;
    for (let i = count - 1; i >= 0; i--) {
      const key = keys ? keys[i]! : String(i);
      const child = keys ? (value as Record<string, JsonValue>)[key]! : (value as JsonValue[])[i]!;
      // A container of more than `chunk` children shows them in groups, which open too.
      stack.push({ value: child, id: nodeId(id, key), label: key, parent: frame, group: count > chunk ? `${id}#${i - (i % chunk)}` : null });
    }
  }
  return found;
}

export interface TextMatch {
  start: number;
  end: number;
}

/** Where the query occurs in a text. */
export function textMatches(text: string, query: string, limit = MATCH_LIMIT): TextMatch[] {
  const found: TextMatch[] = [];
  if (query === '') return found;
  const haystack = text.toLowerCase();
  const needle = query.toLowerCase();
  for (let at = haystack.indexOf(needle); at >= 0 && found.length < limit; at = haystack.indexOf(needle, at + needle.length)) {
    found.push({ start: at, end: at + needle.length });
  }
  return found;
}

/** The next match's index after `index`, going forward or back, wrapping around. */
export function step(index: number, count: number, direction: 1 | -1): number {
  if (count === 0) return 0;
  return (((index + direction) % count) + count) % count;
}
