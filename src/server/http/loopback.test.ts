import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, isLoopbackHost, isLoopbackName, parseHostHeader } from './loopback.ts';

describe('strict loopback parsing', () => {
  it('takes localhost, 127.0.0.0/8 dotted quads and [::1], with or without a port', () => {
    for (const host of ['localhost', 'LOCALHOST:8787', '127.0.0.1', '127.0.0.1:1', '127.1.2.3:9', '127.255.255.255', '[::1]', '[::1]:8787']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it('refuses what only looks like loopback', () => {
    for (const host of [
      undefined,
      '',
      '127.999.999.999',
      '127.000.000.001',
      '127.0.0.01',
      '127.1',
      '127.0.0.1.evil.example',
      '[::1].evil.example',
      '[::1]evil',
      'localhost.evil.example',
      'evil.example',
      '10.0.0.1',
      '[::2]:1',
      '[0:0:0:0:0:0:0:1]x',
      '127.0.0.1:99999',
      '127.0.0.1:',
      '127.0.0.1:+80',
      'user@127.0.0.1',
      '127.0.0.1/path',
      '127.0.0.1 ',
    ]) {
      expect(isLoopbackHost(host), String(host)).toBe(false);
    }
  });

  it('parses the port of a Host header', () => {
    expect(parseHostHeader('127.0.0.1:8787')).toEqual({ name: '127.0.0.1', port: 8787 });
    expect(parseHostHeader('[::1]')).toEqual({ name: '[::1]', port: null });
    expect(parseHostHeader('Example.COM:80')).toEqual({ name: 'example.com', port: 80 });
    expect(parseHostHeader('[::1]:x')).toBeNull();
  });

  it('tells loopback socket addresses and listen hosts', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.3.4.5']) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of [undefined, '0.0.0.0', '::', '192.168.1.20', '::ffff:10.0.0.1', '127.000.000.001']) expect(isLoopbackAddress(address), String(address)).toBe(false);
    for (const name of ['localhost', '127.0.0.1', '::1', '[::1]']) expect(isLoopbackName(name), name).toBe(true);
    for (const name of ['0.0.0.0', '::', 'example.com', '127.999.999.999']) expect(isLoopbackName(name), name).toBe(false);
  });
});
