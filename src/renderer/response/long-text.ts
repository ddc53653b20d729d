/**
 * Long strings of a Run's payload never become strings on the window's thread (issue 31, huge-string):
 * decoding a 50 MB string there was most of the Run's longest task, even in a task of its own. The
 * parse worker puts a short placeholder in the payload instead (a private-use mark, the string's id,
 * then its first LONG_TEXT_HEAD characters) and hands over the string's UTF-16 code units in a
 * transferred buffer (one byte a unit when every unit fits in one). The window keeps the buffer in a
 * registry, and the views that need more than the head read a bounded piece of it (`piece`), built
 * from the code units only: never the whole string.
 *
 * A placeholder is a string, as a kept big number is (shared/big-number.ts): it survives the structured
 * clone and stays a JSON value that every step (table, tree, search, diff) handles. Its id is random
 * for each answer plus the string's number in it (equal strings of one answer share one): an id made
 * from the content (a hash) would let two different strings of one length share one buffer if their
 * hashes met, so one would show the other's text, and would let a server name another answer's text
 * in a string of its own. Only a registered id is a long text: a data string that happens to start
 * with the mark stays a string.
 */
import { nextTask } from '../../shared/capped-body.ts';

/** Marks a placeholder, before and after its id (U+E000 marks big numbers). */
export const LONG_TEXT_MARK = '\uE001';
/** The characters of a long string its placeholder carries: what the tree and the table show of it. */
export const LONG_TEXT_HEAD = 1000;

/** What the worker hands over for one long string: its id and its code units. */
export interface LongTextUnits {
  id: string;
  units: Uint8Array | Uint16Array;
}

/** A prefix no other answer's ids share: 96 random bits, so no answer can name another's long text. */
export function answerIdPrefix(): string {
  const bits = crypto.getRandomValues(new Uint32Array(3));
  return Array.from(bits, (n) => n.toString(36)).join('');
}

/** The code units of `value`, one byte a unit while every unit so far fits, else two; `id` names them. */
export function longTextUnits(value: string, id: string): LongTextUnits {
  let units: Uint8Array | Uint16Array = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code > 0xff && units instanceof Uint8Array) {
      const wide = new Uint16Array(value.length);
      wide.set(units.subarray(0, i));
      units = wide;
    }
    units[i] = code;
  }
  return { id, units };
}

/** The placeholder of a string whose id is `id`: the mark, the id, the mark, its head (whole characters). */
export function placeholderOf(id: string, value: string): string {
  return `${LONG_TEXT_MARK}${id}${LONG_TEXT_MARK}${value.slice(0, edge(value, LONG_TEXT_HEAD))}`;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
/** `n`, or one less when `n` would split a surrogate pair of `value`. */
function edge(value: { charCodeAt(i: number): number; length: number }, n: number): number {
  return n > 0 && n < value.length && isHighSurrogate(value.charCodeAt(n - 1)) ? n - 1 : n;
}

/** A long string as the views read it: its length, its head, and any piece of it on demand. */
export interface LongText {
  id: string;
  length: number;
  head: string;
  /** Characters `from` to `to` (end excluded), built from the code units: keep `to - from` bounded. */
  piece(from: number, to: number): string;
  /**
   * The whole string as UTF-8, for the clipboard or a file: made a piece at a time, each in a task of
   * its own, never as one string (a lone surrogate becomes U+FFFD, as any text on the clipboard).
   */
  blob(type?: string): Promise<Blob>;
}

const registry = new Map<string, { units: Uint8Array | Uint16Array; owners: number }>();
const owned = new WeakMap<object, number>();
// The buffers go with the last answer that holds them (a view is dropped when its tab or Run is).
const release =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<string[]>((ids) => {
        for (const id of ids) {
          const entry = registry.get(id);
          if (entry && --entry.owners === 0) registry.delete(id);
        }
      })
    : null;

/** Keeps the code units of `texts` for as long as `owner` (the answer's view) lives. */
export function registerLongTexts(owner: object, texts: readonly LongTextUnits[]): void {
  for (const { id, units } of texts) {
    const entry = registry.get(id);
    if (entry) entry.owners++;
    else registry.set(id, { units, owners: 1 });
  }
  owned.set(owner, (owned.get(owner) ?? 0) + texts.length);
  release?.register(owner, texts.map((t) => t.id));
}

/** How many long texts an answer's view holds (0 for a view without any). */
export function longTextCount(owner: object): number {
  return owned.get(owner) ?? 0;
}

/** Code units a piece is built from per call (String.fromCharCode takes them as arguments). */
const UNITS_PER_CALL = 8192;

/** The string of code units `from` to `to` (end excluded), exactly, lone surrogates included. */
export function stringOfUnits(units: Uint8Array | Uint16Array, from: number, to: number): string {
  let text = '';
  for (let at = from; at < to; at += UNITS_PER_CALL) text += String.fromCharCode.apply(null, units.subarray(at, Math.min(to, at + UNITS_PER_CALL)) as unknown as number[]);
  return text;
}

/** Characters a Blob part holds: the blob of a 50 MB string is made of pieces this long. */
const BLOB_PART_CHARS = 1 << 20;

/** The long text a placeholder stands for; null for any other value (a plain string included). */
export function longTextOf(value: unknown): LongText | null {
  if (typeof value !== 'string' || value.charCodeAt(0) !== 0xe001) return null;
  const end = value.indexOf(LONG_TEXT_MARK, 1);
  const entry = end > 0 ? registry.get(value.slice(1, end)) : undefined;
  if (!entry) return null;
  const { units } = entry;
  const length = units.length;
  const at = (n: number) => Math.min(Math.max(0, n), length);
  const view = { length, charCodeAt: (i: number) => units[i]! };
  return {
    id: value.slice(1, end),
    length,
    head: value.slice(end + 1),
    piece: (from, to) => stringOfUnits(units, at(from), at(to)),
    blob: async (type = 'text/plain') => {
      const parts: string[] = [];
      for (let from = 0; from < length; ) {
        await nextTask();
        const to = edge(view, Math.min(length, from + BLOB_PART_CHARS));
        parts.push(stringOfUnits(units, from, to));
        from = to;
      }
      return new Blob(parts, { type });
    },
  };
}
