/**
 * Long strings cross from the parse worker to the window as bytes, not as strings (issue 31): the
 * structured clone of a 50 MB string took over a second to read on the window's thread, in one task.
 * The worker takes every string past `LONG_STRING_BYTES` out of its reply (leaving '' in its place)
 * and sends its UTF-8 bytes as a transferred buffer, with the path to put it back; the window decodes
 * each in a task of its own and puts the exact same text back where it was. Nothing the views see
 * changes: the reply is whole again before anyone reads it.
 *
 * One decode per string, not pieces joined: pieces make a rope, and the first view to read the string
 * flattened it, copying all 50 MB again inside that view's own task (the longest task of huge-string's
 * Run: the flatten cost more than the one decode does).
 *
 * A Run's payload goes further: its long strings are not decoded on the window's thread at all
 * (takePayloadLongTexts, long-text.ts); what is left to put back is a long string elsewhere (an
 * error's message), or any long string of an answer that is not a Run's.
 */
import { nextTask } from '../../shared/capped-body.ts';
import { answerIdPrefix, longTextUnits, placeholderOf, stringOfUnits, type LongTextUnits } from './long-text.ts';

/** Strings longer than this (in UTF-16 units) travel as bytes. */
export const LONG_STRING_BYTES = 256 * 1024;
export interface LongString {
  /** Keys and indexes from the top of the reply down to the string. */
  path: Array<string | number>;
  /** The string's UTF-8 bytes, or with `utf16` its UTF-16 code units. */
  bytes: ArrayBuffer;
  /**
   * Set for a string with a lone surrogate (JSON may send `"\ud800"`), which UTF-8 cannot carry: its
   * code units travel instead, so it is put back exactly (built from pieces: slower, and rare).
   */
  utf16?: true;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function utf16Units(value: string): ArrayBuffer {
  const units = new Uint16Array(value.length);
  for (let i = 0; i < value.length; i++) units[i] = value.charCodeAt(i);
  return units.buffer;
}

type Container = Record<string, unknown> | unknown[];
const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer);

/**
 * Replaces every string of `root` longer than `limit` (in place) by what `replace` makes of it, given
 * the string and a way to get its path. Walks with its own stack (a deeply nested answer must not
 * overflow it) and visits a shared object once.
 */
function replaceLongStrings(root: Container, limit: number, replace: (value: string, path: () => Array<string | number>) => string): void {
  const seen = new Set<object>();
  // Each entry links to its parent: a path is built only for a string that is found, so a deeply
  // nested answer is not walked in time proportional to the square of its depth.
  interface At {
    node: Container;
    up: At | null;
    key: string | number;
  }
  const pathOf = (at: At, key: string | number): Array<string | number> => {
    const path = [key];
    for (let cur: At | null = at; cur?.up; cur = cur.up) path.push(cur.key);
    return path.reverse();
  };
  const stack: At[] = [{ node: root, up: null, key: '' }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (seen.has(at.node)) continue;
    seen.add(at.node);
    const node = at.node as Record<string | number, unknown>;
    const keys: Array<string | number> = Array.isArray(at.node) ? at.node.map((_, i) => i) : Object.keys(node);
    for (const key of keys) {
      const value = node[key];
      if (typeof value === 'string' && value.length > limit) node[key] = replace(value, () => pathOf(at, key));
      else if (isContainer(value)) stack.push({ node: value, up: at, key });
    }
  }
}

/** Takes the long strings out of `root` (in place, leaving '') and hands them back as bytes. */
export function takeLongStrings(root: Container, limit = LONG_STRING_BYTES): LongString[] {
  const found: LongString[] = [];
  const encoder = new TextEncoder();
  replaceLongStrings(root, limit, (value, path) => {
    if (LONE_SURROGATE.test(value)) found.push({ path: path(), bytes: utf16Units(value), utf16: true });
    else found.push({ path: path(), bytes: encoder.encode(value).buffer as ArrayBuffer });
    return '';
  });
  return found;
}

/**
 * Puts a placeholder in place of every long string of each section's payload (in place) and hands
 * back their code units (long-text.ts): the window shows those strings without ever decoding them
 * whole. Only a Run's payload: what else reads an answer (a describe, the errors) gets whole strings.
 */
export function takePayloadLongTexts(sections: Array<{ payload: unknown }>, limit = LONG_STRING_BYTES): LongTextUnits[] {
  // Keyed by the string itself: equal strings of the answer share one buffer, and only equal ones.
  const found = new Map<string, LongTextUnits>();
  const prefix = answerIdPrefix();
  for (const section of sections) {
    const holder = [section.payload];
    replaceLongStrings(holder, limit, (value) => {
      let text = found.get(value);
      if (!text) found.set(value, (text = longTextUnits(value, `${prefix}.${found.size}`)));
      return placeholderOf(text.id, value);
    });
    section.payload = holder[0];
  }
  return [...found.values()];
}

/**
 * Decodes each string's bytes into one flat string, in a task of its own (a pause before each and
 * after the last), and puts it back at its path.
 */
export async function putBackLongStrings(root: Container, strings: readonly LongString[], { pause = nextTask } = {}): Promise<void> {
  for (const { path, bytes, utf16 } of strings) {
    await pause();
    const text = utf16 ? stringOfUnits(new Uint16Array(bytes), 0, bytes.byteLength / 2) : new TextDecoder().decode(bytes);
    let node: unknown = root;
    for (const key of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[key];
    (node as Record<string | number, unknown>)[path[path.length - 1]!] = text;
  }
  // What reads the answer next (drawing it) starts in a task of its own too.
  if (strings.length > 0) await pause();
}
