/**
 * Which addresses main may reach for the page without asking (issue 21.4): public unicast ones.
 * Loopback, link-local (169.254.169.254, a cloud's metadata service), private, carrier-grade NAT,
 * unique-local and the other special ranges are reachable only as the embedded server or as an
 * origin the user allowed for a connection. ipaddr.js knows the ranges of both families, and maps
 * `::ffff:127.0.0.1` to the IPv4 address it stands for.
 */
import ipaddr from 'ipaddr.js';

/** An IP address in a public unicast range. Anything unparsable is not public. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return false;
  return ipaddr.process(bare).range() === 'unicast';
}

/**
 * What a URL's host says before any lookup: an IP literal that is (not) public, a `localhost` name
 * (always this machine, RFC 6761), or a name whose addresses only a lookup tells.
 */
export type HostKind = 'public-ip' | 'local-ip' | 'localhost' | 'name';

export function hostKind(hostname: string): HostKind {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(bare)) return isPublicAddress(bare) ? 'public-ip' : 'local-ip';
  const name = bare.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return 'localhost';
  return 'name';
}
