/**
 * Keys an answer sends twice in one object (issue 31, item 6). JSON.parse keeps the last of them
 * without a word, so `{"__errors__": [...], "__errors__": null}` would show rows and no error; the
 * Raw view holds both. This scan reads the text the parse accepted and names what it finds, so the
 * view can say so beside the answer.
 *
 * One pass over the text, no recursion (a 100,000-deep answer is fine): strings are skipped with
 * indexOf, and only the chain of objects open at a point holds its keys. Keys of the answer's top
 * object (the envelope) are named; duplicates deeper in (in records) are counted, with the first
 * one's place kept as an example, so the work stays linear in the text whatever it holds.
 */

export interface DuplicateKeys {
  /** Keys of the answer's top-level object (the envelope) that come more than once, in order found, with how often. */
  top: Array<{ key: string; times: number }>;
  /** How many objects below the top level hold a key more than once. */
  nested: number;
  /** The first of those: where it is (`__payload__[3]`) and the key. */
  firstNested: { where: string; key: string } | null;
}

/** Up to this many keys an object's keys are compared in a list; past it, in a Set. */
const LIST_KEYS = 16;

interface Frame {
  /** Null for an array. */
  keys: string[] | Set<string> | null;
  /** The current key (object) or index (array), for naming a place. */
  at: string | number;
  expectKey: boolean;
  /** This object's duplicate was already counted. */
  counted: boolean;
}

function isEscaped(text: string, quote: number): boolean {
  let slashes = 0;
  for (let i = quote - 1; text.charCodeAt(i) === 92; i--) slashes++;
  return slashes % 2 === 1;
}

/** Adds `key` to the frame's keys; true when it was already there. */
function addKey(frame: Frame, key: string): boolean {
  let keys = frame.keys!;
  if (Array.isArray(keys)) {
    if (keys.includes(key)) return true;
    keys.push(key);
    if (keys.length > LIST_KEYS) frame.keys = keys = new Set(keys);
    return false;
  }
  if (keys.has(key)) return true;
  keys.add(key);
  return false;
}

/** `__payload__[3].tags` for the open chain of frames (the innermost left out). */
function placeOf(stack: Frame[]): string {
  let out = '';
  for (let i = 0; i < stack.length - 1; i++) {
    const at = stack[i]!.at;
    out += typeof at === 'number' ? `[${at}]` : `${out ? '.' : ''}${at}`;
  }
  return out;
}

/**
 * The duplicate keys of `text`, which must be JSON that JSON.parse accepted (the scan does not
 * validate it). Null when there are none.
 */
export function findDuplicateKeys(text: string): DuplicateKeys | null {
  const stack: Frame[] = [];
  const top: DuplicateKeys['top'] = [];
  let nested = 0;
  let firstNested: DuplicateKeys['firstNested'] = null;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) break;
      const frame = stack[stack.length - 1];
      if (frame?.keys && frame.expectKey) {
        const source = text.slice(i + 1, end);
        // `"a"` and `"\u0061"` are one key.
        const key = source.includes('\\') ? (JSON.parse(`"${source}"`) as string) : source;
        frame.at = key;
        if (addKey(frame, key)) {
          if (stack.length === 1) {
            const known = top.find((t) => t.key === key);
            if (known) known.times++;
            else top.push({ key, times: 2 });
          } else if (!frame.counted) {
            frame.counted = true;
            nested++;
            firstNested ??= { where: placeOf(stack), key };
          }
        }
      }
      i = end;
    } else if (c === 123 /* { */) {
      stack.push({ keys: [], at: '', expectKey: true, counted: false });
    } else if (c === 91 /* [ */) {
      stack.push({ keys: null, at: 0, expectKey: false, counted: false });
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
    } else if (c === 58 /* : */) {
      stack[stack.length - 1]!.expectKey = false;
    } else if (c === 44 /* , */) {
      const frame = stack[stack.length - 1]!;
      if (frame.keys) frame.expectKey = true;
      else frame.at = (frame.at as number) + 1;
    }
  }
  return top.length === 0 && nested === 0 ? null : { top, nested, firstNested };
}
