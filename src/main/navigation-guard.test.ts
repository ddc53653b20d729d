import { describe, expect, it, vi } from 'vitest';
import { createAppUrlMatcher } from './app-url.ts';
import { installNavigationGuards } from './navigation-guard.ts';

type Listener = (event: { preventDefault(): void; isMainFrame?: boolean }, url?: string) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((details: { url: string }) => { action: string }) | null = null;
  return {
    contents: {
      on: (name: string, listener: Listener) => listeners.set(name, listener),
      setWindowOpenHandler: (handler: (details: { url: string }) => { action: string }) => (openHandler = handler),
    },
    emit(name: string, url?: string, extra: object = {}) {
      const event = { preventDefault: vi.fn(), ...extra };
      listeners.get(name)!(event, url);
      return event;
    },
    open: (url: string) => openHandler!({ url }),
  };
}

function setup() {
  const fake = fakeContents();
  const openExternal = vi.fn();
  installNavigationGuards(fake.contents as never, { isAppUrl: createAppUrlMatcher(), openExternal });
  return { fake, openExternal };
}

describe('installNavigationGuards', () => {
  it('lets the app navigate within itself', () => {
    const { fake, openExternal } = setup();
    expect(fake.emit('will-navigate', 'app://console/index.html').preventDefault).not.toHaveBeenCalled();
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('stops navigation away and opens web links in the system browser', () => {
    const { fake, openExternal } = setup();
    expect(fake.emit('will-navigate', 'https://example.com/').preventDefault).toHaveBeenCalled();
    expect(openExternal).toHaveBeenCalledWith('https://example.com/');
    expect(fake.emit('will-redirect', 'file:///etc/passwd').preventDefault).toHaveBeenCalled();
    expect(openExternal).toHaveBeenCalledTimes(1);
  });

  it('denies every new window, opening only web links outside', () => {
    const { fake, openExternal } = setup();
    expect(fake.open('https://example.com/doc')).toEqual({ action: 'deny' });
    expect(fake.open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(fake.open('app://console/index.html')).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledTimes(1);
  });

  it('refuses webviews and subframe navigation', () => {
    const { fake } = setup();
    expect(fake.emit('will-attach-webview').preventDefault).toHaveBeenCalled();
    expect(fake.emit('will-frame-navigate', undefined, { isMainFrame: false }).preventDefault).toHaveBeenCalled();
    expect(fake.emit('will-frame-navigate', undefined, { isMainFrame: true }).preventDefault).not.toHaveBeenCalled();
  });
});
