/**
 * The one origin rule of the console (docs/protocol.md "The local admin"): a credential goes only to the
 * origin of the connection it belongs to, never to a URL that an answer names. The renderer asks it
 * before it attaches a token in browser mode, main before it attaches anything in the desktop app.
 */

/** `scheme://host:port` of an http(s) or ws(s) URL, with ws mapped to http (a socket shares its server's origin); null otherwise. */
export function httpOrigin(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const scheme = { 'http:': 'http:', 'https:': 'https:', 'ws:': 'http:', 'wss:': 'https:' }[parsed.protocol];
  if (!scheme || parsed.hostname === '') return null;
  // URL drops a scheme's default port, so `https://h:443` and `https://h` compare equal.
  return new URL(`${scheme}//${parsed.host}`).origin;
}

/** True when `url` is on the origin of `connectionUrl` (a connection's base URL). */
export function isSameOrigin(url: string, connectionUrl: string): boolean {
  const origin = httpOrigin(url);
  return origin !== null && origin === httpOrigin(connectionUrl);
}
