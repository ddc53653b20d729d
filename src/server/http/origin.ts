/**
 * The server's own origin, as a browser names it: the scheme and the `Host` the request was sent to.
 * A page served by this server sends `Origin: http://<Host>` (https behind a TLS proxy); any other
 * Origin is a page of another site, or another port of the same machine, which is the same site for
 * cookies (SameSite does not look at ports) but not the same origin.
 */
export function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  const lower = origin.toLowerCase();
  const ownHost = host.toLowerCase();
  return lower === `http://${ownHost}` || lower === `https://${ownHost}`;
}
