import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppProtocolHandler, mimeTypeOf, resolveAppFile } from './app-protocol.ts';

const root = resolve('/srv/out/renderer');

describe('resolveAppFile', () => {
  it('maps app URLs to files inside the root', () => {
    expect(resolveAppFile(root, 'app://console/')).toBe(resolve(root, 'index.html'));
    expect(resolveAppFile(root, 'app://console/index.html')).toBe(resolve(root, 'index.html'));
    expect(resolveAppFile(root, 'app://console/assets/a%20b.js?x=1')).toBe(resolve(root, 'assets/a b.js'));
  });

  it('refuses anything outside the root or another host', () => {
    // The URL parser already folds plain and %2e dot segments into the root.
    expect(resolveAppFile(root, 'app://console/../secrets.json')).toBe(resolve(root, 'secrets.json'));
    expect(resolveAppFile(root, 'app://console/%2e%2e/%2e%2e/etc/passwd')).toBe(resolve(root, 'etc/passwd'));
    for (const url of [
      'app://console/assets/..%2F..%2F..%2Fetc%2Fpasswd',
      'app://console/a%5C..%5C..%5Cx',
      'app://console/%00',
      'app://other/index.html',
      'file:///etc/passwd',
      'app://console/%E0%A4%A',
    ]) {
      expect(resolveAppFile(root, url)).toBeNull();
    }
  });
});

describe('createAppProtocolHandler', () => {
  it('serves files with their type and the CSP header', async () => {
    const handler = createAppProtocolHandler({ rootDir: root, csp: "default-src 'none'", read: async () => new TextEncoder().encode('<!doctype html>') });
    const response = await handler(new Request('app://console/index.html'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(await response.text()).toBe('<!doctype html>');
  });

  it('answers 404 for a missing or forbidden file', async () => {
    const handler = createAppProtocolHandler({ rootDir: root, csp: 'x', read: async () => Promise.reject(new Error('ENOENT')) });
    expect((await handler(new Request('app://console/nope.js'))).status).toBe(404);
    expect((await handler(new Request('app://console/%2e%2e/x'))).status).toBe(404);
  });

  it('knows the types the renderer uses', () => {
    expect(mimeTypeOf('a.js')).toMatch(/javascript/);
    expect(mimeTypeOf('codicon.ttf')).toBe('font/ttf');
    expect(mimeTypeOf('x.unknown')).toBe('application/octet-stream');
  });
});
