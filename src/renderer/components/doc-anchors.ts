/**
 * Where a place in the bundled docs (docs/protocol.md, docs/workspace.md) is: the anchor of a heading,
 * made the way GitHub makes it, so a link works on GitHub and in the console's Docs view alike; and
 * the link the editor's hovers and markers carry to open one inside the app.
 */
export type DocName = 'protocol' | 'workspace';

export interface DocPlace {
  doc: DocName;
  /** A heading's anchor, or '' for the top. */
  anchor: string;
}

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
export function headingAnchor(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The command a hover link runs, and the target a marker's code opens. */
export const OPEN_DOCS_COMMAND = 'jql.openDocs';

export function docsLink(place: DocPlace): string {
  return `command:${OPEN_DOCS_COMMAND}?${encodeURIComponent(JSON.stringify([place.doc, place.anchor]))}`;
}

/** The place a docs link names, or null for any other link. */
export function placeOfLink(link: { scheme: string; path: string; query: string }): DocPlace | null {
  if (link.scheme !== 'command' || link.path !== OPEN_DOCS_COMMAND) return null;
  try {
    const [doc, anchor] = JSON.parse(link.query) as unknown[];
    return (doc === 'protocol' || doc === 'workspace') && typeof anchor === 'string' ? { doc, anchor } : null;
  } catch {
    return null;
  }
}

/** A link inside a doc (`#errors`, `workspace.md#limits`), as a place; null when it leaves the docs. */
export function placeOfHref(href: string, current: DocName): DocPlace | null {
  const match = /^(?:(protocol|workspace)\.md)?(?:#(.*))?$/.exec(href);
  if (!match || href === '') return null;
  return { doc: (match[1] as DocName | undefined) ?? current, anchor: decodeURIComponent(match[2] ?? '') };
}
