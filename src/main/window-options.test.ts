import { describe, expect, it } from 'vitest';
import { isPermissionAllowed, mainWindowOptions } from './window-options.ts';

describe('mainWindowOptions', () => {
  it('isolates the page: context isolation, sandbox, no Node, no webview', () => {
    const prefs = mainWindowOptions('/app/preload/index.cjs', false).webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
  });

  it('shows the window only when it has painted', () => {
    expect(mainWindowOptions('p', false).show).toBe(false);
  });
});

describe('isPermissionAllowed', () => {
  it('allows writing to the clipboard and nothing else', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write')).toBe(true);
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read']) expect(isPermissionAllowed(p)).toBe(false);
  });
});
