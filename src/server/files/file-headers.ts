/**
 * The HTTP headers of a served file (docs/protocol.md "File URLs"): `Content-Disposition` with a file name that
 * is safe whatever the client called the file (RFC 6266, with an RFC 8187 `filename*`), and single
 * byte ranges (RFC 9110 14.1.2).
 */

/** Types a browser may show in place; anything else is a download. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain']);

export function contentDisposition(name: string, contentType: string): string {
  const kind = INLINE_TYPES.has(contentType.split(';')[0]?.trim() ?? '') ? 'inline' : 'attachment';
  const safe = safeFileName(name);
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(safe)}`;
}

/** The last path segment, without control characters or leading dots; never empty. */
export function safeFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const cleaned = base.replace(/\p{Cc}/gu, '').replace(/^[.\s]+/, '').trim();
  return cleaned === '' ? 'download' : cleaned;
}

function encodeRfc8187(value: string): string {
  // attr-char: ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export type ByteRange = { start: number; end: number };

/**
 * The range a `Range` header asks of a file of `size` bytes: a range, `unsatisfiable` (416), or null
 * to send the whole file (no header, several ranges, or a header this server does not understand,
 * which RFC 9110 allows it to ignore).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}
