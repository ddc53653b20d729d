/**
 * The application menu as data (tested without Electron): File > Open Workspace…, Open Recent,
 * Open Demo Workspace, Open Collection Folder…; the standard Edit roles (Monaco needs them for copy/paste on macOS); View.
 */
import { basename } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openWorkspace(): void;
  openRecent(path: string): void;
  openDemo(): void;
  clearRecent(): void;
  /** Pick the folder of collections the Saved view shows (docs/collections.md). */
  openCollectionFolder(): void;
}

export interface MenuOptions {
  isMac: boolean;
  isDev: boolean;
  recent: string[];
  current: string | null;
  appName: string;
}

export function buildMenuTemplate(options: MenuOptions, actions: MenuActions): MenuItemConstructorOptions[] {
  const recentItems: MenuItemConstructorOptions[] = options.recent.length
    ? [
        ...options.recent.map(
          (path): MenuItemConstructorOptions => ({
            label: `${basename(path)} — ${path}`,
            type: 'checkbox',
            checked: path === options.current,
            click: () => actions.openRecent(path),
          }),
        ),
        { type: 'separator' },
        { label: 'Clear Recent', click: () => actions.clearRecent() },
      ]
    : [{ label: 'No recent workspaces', enabled: false }];

  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open Workspace…', accelerator: 'CmdOrCtrl+O', click: () => actions.openWorkspace() },
      { label: 'Open Recent', submenu: recentItems },
      { label: 'Open Demo Workspace', type: 'checkbox', checked: options.current === null, click: () => actions.openDemo() },
      { type: 'separator' },
      { label: 'Open Collection Folder…', click: () => actions.openCollectionFolder() },
      { type: 'separator' },
      options.isMac ? { role: 'close' } : { role: 'quit' },
    ],
  };

  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(options.isDev ? ([{ role: 'toggleDevTools' }] as MenuItemConstructorOptions[]) : []),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };

  return [
    ...(options.isMac ? [{ label: options.appName, role: 'appMenu' } as MenuItemConstructorOptions] : []),
    file,
    { role: 'editMenu' },
    view,
    { role: 'windowMenu' },
  ];
}
