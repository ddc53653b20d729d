/**
 * Text from a source server or a file name, made safe for a terminal (issue 32.9): control
 * characters (a fake line after a newline, a title set by an escape sequence, a cleared screen) are
 * shown as `\xHH` escapes instead of acting. Every message the command line prints goes through it.
 */
// C0 controls, DEL and the C1 controls (U+009B is a one-character escape sequence introducer).
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export function escapeControl(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
