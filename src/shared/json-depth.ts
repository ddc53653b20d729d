/**
 * How deeply a JSON text nests (issue 32.8): a document of 200,000 nested arrays parses, then
 * overflows the stack of whatever walks it. Text from a file or another server is measured before
 * it is parsed, in one pass and without recursion, and refused past MAX_JSON_DEPTH.
 */

/** Arrays and objects nested deeper than this are refused: far past any real document. */
export const MAX_JSON_DEPTH = 1000;

/** The deepest nesting of arrays and objects in `text` (brackets inside strings do not count). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** The sentence for `what` (a file name, an answer) when it nests too deeply, or null when it does not. */
export function tooDeep(text: string, what: string): string | null {
  const depth = jsonDepth(text);
  return depth > MAX_JSON_DEPTH ? `${what} is nested ${depth} levels deep; at most ${MAX_JSON_DEPTH} are read` : null;
}
