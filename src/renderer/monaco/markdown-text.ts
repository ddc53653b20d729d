/**
 * Text from elsewhere (a server's describe, a connection's name) inside the editor's Markdown hovers:
 * always as inline code, so `<app>.<Model>` stays text instead of becoming HTML, a URL is never a link,
 * and Markdown in a name is shown, not obeyed. Control and bidi characters go (U+202E must not turn a
 * name around) and very long names are cut.
 */
const MAX_CHARS = 200;

export function inlineCode(text: string): string {
  let clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
  if (clean.length > MAX_CHARS) clean = `${clean.slice(0, MAX_CHARS)}…`;
  if (clean === '') return '` `';
  const longestRun = Math.max(0, ...[...clean.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  // A space keeps a backtick at either end from joining the fence (CommonMark strips one each side).
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** The console's own sentences: Markdown's special characters (and `<`) shown as themselves. */
export function plainText(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, '\\$&');
}
