import { describe, expect, it } from 'vitest';
import { hostKind, isPublicAddress } from './address-policy.ts';

describe('isPublicAddress', () => {
  it('refuses loopback, link-local, private and other special ranges of both families', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '0.0.0.0', '10.1.2.3', '172.16.0.1', '192.168.1.5', '169.254.169.254', '100.64.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '[::1]', '224.0.0.1']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('accepts public unicast addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(address), address).toBe(true);
  });

  it('treats what is not an address as not public', () => {
    expect(isPublicAddress('example.com')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });
});

describe('hostKind', () => {
  it('tells IP literals, localhost names and other names apart (as URL parsing leaves them)', () => {
    expect(hostKind(new URL('http://127.0.0.1:9229').hostname)).toBe('local-ip');
    // The URL parser already turns odd IPv4 spellings into dotted quads.
    expect(hostKind(new URL('http://2130706433/').hostname)).toBe('local-ip');
    expect(hostKind(new URL('http://0x7f.1/').hostname)).toBe('local-ip');
    expect(hostKind(new URL('http://[::1]:8787').hostname)).toBe('local-ip');
    expect(hostKind(new URL('http://169.254.169.254/latest').hostname)).toBe('local-ip');
    expect(hostKind(new URL('https://8.8.8.8').hostname)).toBe('public-ip');
    expect(hostKind(new URL('http://LocalHost.:3000').hostname)).toBe('localhost');
    expect(hostKind(new URL('http://api.localhost').hostname)).toBe('localhost');
    expect(hostKind(new URL('https://jql.example').hostname)).toBe('name');
  });
});
