/**
 * A stored file's name (docs/protocol.md "File URLs"): the client's name is metadata only, never a path. Control
 * and format characters (Unicode Cc and Cf) go, so that U+202E RIGHT-TO-LEFT OVERRIDE cannot make
 * `invoice\u202Efdp.exe` show as `invoiceexe.pdf`, nor a zero-width character make two names look
 * alike; it is kept to 255 characters.
 */
export function cleanFileName(name: string | undefined): string {
  const cleaned = [...(name ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '')].slice(0, 255).join('').trim();
  return cleaned === '' ? 'file' : cleaned;
}
