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
