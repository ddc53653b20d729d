/**
 * Words a server sent, made safe to show beside the console's own: control characters, bidi
 * controls and other invisible format characters are removed (U+202E would show `exe.png` reversed,
 * a BEL or ESC would do nothing visible but hide text), and the text is cut to a length so a
 * 10,000-character "version" cannot push the console's status off the screen. The boundary applies
 * these once, where an answer is read; components show the result in the server-words style.
 */

/** A one-line label (a version, a user name, a status text). */
export const LABEL_MAX = 120;
/** A message or notice: longer, and may span lines. */
export const MESSAGE_MAX = 2_000;
/** A stack trace or other detail shown folded. */
export const DETAIL_MAX = 64 * 1024;
import { plainLabel } from '../../shared/plain-label.ts';

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  // Do not split a surrogate pair.
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** One line: invisible characters gone, whitespace runs (newlines too) made one space, cut to `max`. */
export function serverLabel(text: string, max = LABEL_MAX): string {
  // Cut a very long text first, so a 50 MB "label" is not scanned whole.
  const head = text.length > max * 4 ? text.slice(0, max * 4) : text;
  // One rule for what may be shown of a server's label, shared with main: plainLabel.
  return cut(plainLabel(head.replace(/[\u2028\u2029]/g, ' ')).replace(/ {2,}/g, ' ').trim(), max);
}

/** Several lines allowed: invisible characters but newlines and tabs gone, cut to `max`. */
export function serverMessage(text: string, max = MESSAGE_MAX): string {
  const head = text.length > max * 4 ? text.slice(0, max * 4) : text;
  return cut(head.replace(/\r\n?|[\u2028\u2029]/g, '\n').split('\n').map(plainLabel).join('\n'), max);
}
