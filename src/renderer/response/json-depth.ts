/**
 * How deep a parsed JSON value is nested, measured without recursion (a 100,000-deep array would
 * overflow the stack of anything recursive: structured cloning to and from the parse worker, React,
 * JSON.stringify). The console shows nothing deeper than MAX_JSON_DEPTH as a tree; it keeps such a
 * value as raw text.
 */
export const MAX_JSON_DEPTH = 256;

/** True when `value` has containers nested more than `limit` levels (a scalar is depth 0). */
export function nestedDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * True when the JSON text in `bytes` opens more than `limit` containers without closing them,
 * told from the bytes alone (brackets inside strings do not count). Such a body is small for its
 * cost: parsing and reading 200 KB nested 100,000 deep took the window half a second of parsing and
 * garbage collection (issue 31, deep-nesting), so it goes to the parse worker whatever its size.
 */
export function textNestsDeeperThan(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c) i++; // a backslash escapes the next byte
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > limit) return true;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return false;
}
