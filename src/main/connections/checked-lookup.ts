/**
 * A DNS lookup for the sockets main opens with Node's stack (`ws`), which checks what it found: a
 * name that resolves to an address on this computer or its network is refused unless the reach
 * check allowed local addresses for this connection. Checking at connect time, not before, leaves
 * a rebinding name no window between the check and the connection.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isPublicAddress } from './address-policy.ts';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type LookupFn = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

export function checkedLookup(allowLocal: boolean, lookup: LookupFn = dnsLookup as unknown as LookupFn): LookupFn {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, options.all ? [] : '');
      const addresses = found as LookupAddress[];
      const local = addresses.find((a) => !isPublicAddress(a.address));
      if (local && !allowLocal) {
        const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${local.address}, an address on this computer or its network: refused`);
        refused.code = 'EREFUSED_LOCAL';
        return callback(refused, options.all ? [] : '');
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}
