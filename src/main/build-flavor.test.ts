import { describe, expect, it } from 'vitest';
import { devServerUrl, IS_DEV_BUILD } from './build-flavor.ts';
import { buildMenuTemplate } from './menu.ts';
import { mainWindowOptions } from './window-options.ts';

describe('development features only in a development build', () => {
  it('is not a development build unless the build said so (not here, not in an installer)', () => {
    expect(IS_DEV_BUILD).toBe(false);
  });

  it('honours ELECTRON_RENDERER_URL only in a development build', () => {
    const env = { ELECTRON_RENDERER_URL: 'http://127.0.0.1:5173' };
    expect(devServerUrl(env, false)).toBeUndefined();
    expect(devServerUrl(env, true)).toBe('http://127.0.0.1:5173');
  });

  it('offers DevTools (menu and window) only in a development build', () => {
    const roles = (isDev: boolean) =>
      JSON.stringify(buildMenuTemplate({ isMac: false, isDev, recent: [], current: null, appName: 'JQL Console' }, { openWorkspace() {}, openRecent() {}, openDemo() {}, clearRecent() {}, openCollectionFolder() {} }));
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(true)).toContain('toggleDevTools');
    expect(mainWindowOptions('/p.cjs', false).webPreferences?.devTools).toBe(false);
    expect(mainWindowOptions('/p.cjs', true).webPreferences?.devTools).toBe(true);
  });
});
