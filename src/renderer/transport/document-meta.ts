/**
 * Adds `__meta__` keys to a query document's text without parsing it into numbers: the edit is made
 * in the text (jsonc-parser), so a 64-bit id in a filter keeps its digits, and the rest of the
 * document stays as the user wrote it. Used for the protocol extensions the console adds to a
 * document it runs on the user's behalf: `seeAs` (run as another user) and `whyNot`.
 */
import { applyEdits, modify, parseTree, findNodeAtLocation, type JSONPath } from 'jsonc-parser';

export type MetaValue = string | number | boolean | null | { [key: string]: MetaValue };

/**
 * The document with `keys` set in its request-level meta: `__meta__` of a single query,
 * `__root_meta__` of a multi-query (created if absent), or with `subquery`, that subquery's `__meta__`.
 * Null when the text is not a JSON object.
 */
export function withMetaKeys(text: string, keys: Record<string, MetaValue>, subquery?: string): string | null {
  const tree = parseTree(text);
  if (!tree || tree.type !== 'object') return null;
  const single = findNodeAtLocation(tree, ['__meta__']) !== undefined;
  const base: JSONPath = subquery !== undefined ? [subquery, '__meta__'] : single ? ['__meta__'] : ['__root_meta__'];
  let out = text;
  for (const [key, value] of Object.entries(keys)) {
    out = applyEdits(out, modify(out, [...base, key], value, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  }
  return out;
}
