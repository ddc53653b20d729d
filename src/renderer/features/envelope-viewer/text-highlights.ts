/**
 * Colours and search marks laid over plain text with the CSS Custom Highlight API: ranges of the
 * text node are named (`::highlight(raw-key)` in app.css says how each looks), so the DOM keeps one
 * text node however many tokens or matches there are. The registry is document-wide and several raw
 * views may be mounted at once (the Query and Upload views): each adds its ranges to the shared
 * highlight of a name and takes them back when it goes.
 */

/** Search marks paint over the syntax colours. */
const PRIORITY: Record<string, number> = { 'search-match': 1, 'search-current': 2 };

export function addHighlight(name: string, ranges: readonly Range[]): () => void {
  const registry = typeof CSS !== 'undefined' ? CSS.highlights : undefined;
  if (!registry || ranges.length === 0) return () => {};
  let highlight = registry.get(name);
  if (!highlight) {
    highlight = new Highlight();
    highlight.priority = PRIORITY[name] ?? 0;
    registry.set(name, highlight);
  }
  const shared = highlight;
  for (const range of ranges) shared.add(range);
  return () => {
    for (const range of ranges) shared.delete(range);
  };
}

/** A range over characters [start, end) of a text node. */
export function textRange(node: Text, start: number, end: number): Range {
  const range = new Range();
  range.setStart(node, start);
  range.setEnd(node, end);
  return range;
}
