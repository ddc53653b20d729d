/**
 * What a value weighs once sent: the UTF-8 bytes of its JSON text exactly as JSON.stringify writes it
 * (docs/protocol.md "Errors" `limits.maxAnswerBytes`). Counted, not estimated: `€` is 3 bytes, U+0001
 * is 6 (`\u0001`), `"` is 2 (`\"`), a surrogate pair 4, a lone surrogate 6 (`\udc00`).
 */

/** Printable ASCII that JSON writes as it is (no `"` or `\`): one byte each. */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** What JSON escapes or what is not one UTF-8 sequence per UTF-16 unit (surrogates). */
const NEEDS_WALK = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** Bytes of `JSON.stringify(text)`, quotes included. */
export function jsonStringBytes(text: string): number {
  // Most strings are decided by a regular expression (and one native count), not a loop in script.
  if (PLAIN_ASCII.test(text)) return text.length + 2;
  if (!NEEDS_WALK.test(text)) return Buffer.byteLength(text, 'utf8') + 2;
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20) bytes += unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d ? 2 : 6;
    else if (unit === 0x22 || unit === 0x5c) bytes += 2;
    else if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 6;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}

/** Bytes of `JSON.stringify(n)` for a number (`null` for one that is not finite). */
export function jsonNumberBytes(n: number): number {
  if (Number.isSafeInteger(n)) {
    // Digits by comparison: a page's ids and counts are not turned into strings to be measured.
    let bytes = n < 0 ? 2 : 1;
    let rest = Math.abs(n);
    while (rest >= 10) {
      rest = Math.floor(rest / 10);
      bytes += 1;
    }
    return bytes;
  }
  return Number.isFinite(n) ? String(n).length : 4;
}
