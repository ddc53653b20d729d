import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, createAppUrlMatcher, isSafeExternalUrl } from './app-url.ts';

describe('createAppUrlMatcher', () => {
  it('accepts the app scheme and host only', () => {
    const isApp = createAppUrlMatcher();
    expect(isApp(APP_ENTRY_URL)).toBe(true);
    expect(isApp('app://console/assets/x.js')).toBe(true);
    expect(isApp('app://other/index.html')).toBe(false);
    expect(isApp('https://console/index.html')).toBe(false);
    expect(isApp('file:///etc/passwd')).toBe(false);
    expect(isApp('not a url')).toBe(false);
  });

  it('accepts the dev server origin when there is one', () => {
    const isApp = createAppUrlMatcher('http://localhost:5173/');
    expect(isApp('http://localhost:5173/index.html')).toBe(true);
    expect(isApp('http://localhost:5174/')).toBe(false);
  });
});

describe('isSafeExternalUrl', () => {
  it('lets only web pages open in the system browser', () => {
    expect(isSafeExternalUrl('https://example.com/docs')).toBe(true);
    expect(isSafeExternalUrl('http://example.com')).toBe(true);
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'app://console/', 'ms-settings:', 'nope']) {
      expect(isSafeExternalUrl(bad)).toBe(false);
    }
  });
});
