/**
 * A label a server supplied (its version, a user name, an HTTP status text, a close reason) as it
 * may be shown: no control or format characters (Unicode Cc, Cf), so U+202E and the other bidi
 * controls cannot reorder what the user reads (docs/protocol.md "File URLs" strips the same from file names).
 */
export function plainLabel(text: string): string {
  return text.replace(/\p{Cf}/gu, '').replace(/\p{Cc}+/gu, ' ');
}
