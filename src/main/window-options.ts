/**
 * The console window's options: context isolation, sandbox, no Node in the page (Electron security
 * checklist #3, #4, #7), no webview tag, no drag-and-drop navigation, DevTools only in a development
 * build (build-flavor.ts).
 */
import type { BrowserWindowConstructorOptions } from 'electron';

export function mainWindowOptions(preloadPath: string, devTools: boolean): BrowserWindowConstructorOptions {
  return {
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'JQL Console',
    backgroundColor: '#1e1f22',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools,
    },
  };
}

/** Permissions the page may get: writing to the clipboard (copy cell/row/curl). Nothing else. */
export function isPermissionAllowed(permission: string): boolean {
  return permission === 'clipboard-sanitized-write';
}
