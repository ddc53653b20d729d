/**
 * What counts as this machine, parsed strictly (docs/protocol.md "The local admin", docs/protocol.md "Endpoints"): the
 * `Host` header of a request, the address a server binds to, and a socket's peer address. Loose
 * parsing is how `127.999.999.999`, `127.000.000.001` or `[::1].evil.example` passed for loopback,
 * so every name here is matched whole, never by prefix or pattern.
 */

export interface HostHeader {
  /** Lower-cased; IPv6 literals keep their brackets (`[::1]`). */
  name: string;
  port: number | null;
}

const PORT = /^(?:0|[1-9][0-9]{0,4})$/;
const DNS_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/;

/** `name`, `name:port`, `[v6]` or `[v6]:port`; null for anything else (userinfo, paths, stray text). */
export function parseHostHeader(header: string | undefined): HostHeader | null {
  if (!header) return null;
  const text = header.toLowerCase();
  let name: string;
  let rest: string;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0) return null;
    name = text.slice(0, end + 1);
    rest = text.slice(end + 1);
    if (!/^\[[0-9a-f:.]+\]$/.test(name)) return null;
  } else {
    const colon = text.indexOf(':');
    name = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? '' : text.slice(colon);
    if (!DNS_NAME.test(name)) return null;
  }
  if (rest === '') return { name, port: null };
  if (!rest.startsWith(':') || !PORT.test(rest.slice(1))) return null;
  const port = Number(rest.slice(1));
  return port <= 65535 ? { name, port } : null;
}

/** Four decimal parts of 0-255 without leading zeros, the first 127. */
export function isLoopbackIPv4(text: string): boolean {
  const parts = text.split('.');
  if (parts.length !== 4) return false;
  for (const part of parts) {
    if (!/^(?:0|[1-9][0-9]{0,2})$/.test(part) || Number(part) > 255) return false;
  }
  return parts[0] === '127';
}

/** A host name that names loopback: `localhost`, a 127.0.0.0/8 dotted quad, `[::1]` (or `::1` bare). */
export function isLoopbackName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'localhost' || lower === '[::1]' || lower === '::1' || isLoopbackIPv4(lower);
}

/** A `Host` header naming loopback, with or without a port. */
export function isLoopbackHost(header: string | undefined): boolean {
  const host = parseHostHeader(header);
  return host !== null && isLoopbackName(host.name);
}

/** A socket's peer or local address (as Node reports it) on the loopback interface. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || isLoopbackIPv4(v4);
}

/** `127.0.0.1` stays, `::1` becomes `[::1]`: the host part of a URL. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
