import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { checkedLookup, type LookupFn } from './checked-lookup.ts';

const fakeDns = (addresses: LookupAddress[]): LookupFn => (_host, _options, callback) => callback(null, addresses);
const run = (lookup: LookupFn, all = false) =>
  new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) => lookup('rebind.example', { all }, (error, address) => resolve({ error, address })));

describe('checkedLookup', () => {
  it('refuses a name that resolves to a local address when local addresses were not allowed', async () => {
    const { error } = await run(checkedLookup(false, fakeDns([{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }])));
    expect(error?.message).toMatch(/resolves to 127\.0\.0\.1, an address on this computer or its network: refused/);
  });

  it('passes public addresses, and local ones where the user allowed them', async () => {
    expect((await run(checkedLookup(false, fakeDns([{ address: '93.184.216.34', family: 4 }])))).address).toBe('93.184.216.34');
    expect((await run(checkedLookup(true, fakeDns([{ address: '10.0.0.8', family: 4 }])), true)).address).toEqual([{ address: '10.0.0.8', family: 4 }]);
  });
});
