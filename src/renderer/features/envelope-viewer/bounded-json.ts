/**
 * JSON text of a value for showing, cut to a length: a raw value kept by the boundary may hold a
 * 50 MB string, which must not become a 50 MB text node.
 */
import type { LongText } from '../../response/long-text.ts';

export const SHOWN_JSON_CHARS = 20_000;

/** Strings longer than this are shown cut, with "show all" (a string over 1 MiB would stall drawing). */
export const LONG_STRING_CHARS = 1024 * 1024;

export function boundedJson(value: unknown, max = SHOWN_JSON_CHARS): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' && v.length > max ? `${v.slice(0, max)}…` : v), 2) ?? String(value);
  } catch (err) {
    return `(cannot be shown: ${(err as Error).message})`;
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length.toLocaleString('en')} characters in all)` : text;
}

/** Characters of a long string drawn at once by "show all": a textarea of 50 MB froze the window. */
export const TEXT_PIECE_CHARS = 100_000;

export interface TextPiece {
  /** The piece's characters, and where they sit in the whole string (0-based, end excluded). */
  text: string;
  from: number;
  to: number;
  /** Which piece this is and how many there are. */
  index: number;
  count: number;
}

/**
 * Piece `index` of `value`, `size` characters long, so a long string is drawn a piece at a time. A
 * piece never ends between the two halves of a surrogate pair: that character goes whole to the next.
 * A long text (response/long-text.ts) is read a piece at a time too: only this piece is built.
 */
export function textPiece(value: string | LongText, index: number, size = TEXT_PIECE_CHARS): TextPiece {
  const slice = typeof value === 'string' ? (from: number, to: number) => value.slice(from, to) : (from: number, to: number) => value.piece(from, to);
  const count = Math.max(1, Math.ceil(value.length / size));
  const at = Math.min(Math.max(0, index), count - 1);
  const edge = (n: number) => (n > 0 && n < value.length && isHighSurrogate(slice(n - 1, n).charCodeAt(0)) ? n - 1 : n);
  const from = edge(at * size);
  const to = edge(Math.min(value.length, (at + 1) * size));
  return { text: slice(from, to), from, to, index: at, count };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
