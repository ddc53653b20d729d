/**
 * Reading an answer's body with a cap on its size, for every side that reads another server (the
 * console's browser transport, the command line's remote reads): a Content-Length past the cap is
 * refused before any byte is read, and a body that keeps coming is cancelled once it passes the cap,
 * so memory stays bounded by the cap whatever the source sends.
 */

/**
 * The body of `response`, at most `maxBytes` of it. Past the cap, `refuse` runs (e.g. to abort the
 * request itself), the body is cancelled and the error `tooLarge` makes is thrown.
 */
export async function readCappedBytes(response: Response, maxBytes: number, tooLarge: () => Error, refuse: () => void = () => undefined): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    refuse();
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  let chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // What was read is let go at once, not held until the error is handled.
      chunks = [];
      refuse();
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}
