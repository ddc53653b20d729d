import { describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { buildMenuTemplate, type MenuActions } from './menu.ts';

const actions = (): MenuActions => ({ openWorkspace: vi.fn(), openRecent: vi.fn(), openDemo: vi.fn(), clearRecent: vi.fn(), openCollectionFolder: vi.fn() });
const submenu = (item: MenuItemConstructorOptions | undefined) => item?.submenu as MenuItemConstructorOptions[];
const click = (item: MenuItemConstructorOptions | undefined) => (item!.click as () => void)();

describe('buildMenuTemplate', () => {
  it('has File > Open Workspace, Open Recent and the demo', () => {
    const a = actions();
    const template = buildMenuTemplate({ isMac: false, isDev: false, recent: ['/ws/a.json', '/ws/b.json'], current: '/ws/b.json', appName: 'JQL Console' }, a);
    const file = submenu(template.find((m) => m.label === 'File'));
    const open = file.find((i) => i.label === 'Open Workspace…');
    expect(open?.accelerator).toBe('CmdOrCtrl+O');
    click(open);
    expect(a.openWorkspace).toHaveBeenCalled();

    const recent = submenu(file.find((i) => i.label === 'Open Recent'));
    expect(recent.map((i) => i.label ?? i.type)).toEqual(['a.json — /ws/a.json', 'b.json — /ws/b.json', 'separator', 'Clear Recent']);
    expect(recent[1]?.checked).toBe(true);
    click(recent[0]);
    expect(a.openRecent).toHaveBeenCalledWith('/ws/a.json');
    expect(file.find((i) => i.label === 'Open Demo Workspace')?.checked).toBe(false);
    click(file.find((i) => i.label === 'Open Collection Folder…'));
    expect(a.openCollectionFolder).toHaveBeenCalled();
  });

  it('says when there is no recent workspace, and hides dev tools outside development', () => {
    const template = buildMenuTemplate({ isMac: false, isDev: false, recent: [], current: null, appName: 'x' }, actions());
    const file = submenu(template.find((m) => m.label === 'File'));
    expect(submenu(file.find((i) => i.label === 'Open Recent'))).toEqual([{ label: 'No recent workspaces', enabled: false }]);
    const view = submenu(template.find((m) => m.label === 'View'));
    expect(view.some((i) => i.role === 'toggleDevTools')).toBe(false);
    expect(template.some((m) => m.role === 'editMenu')).toBe(true);
  });

  it('adds the app menu on macOS', () => {
    const template = buildMenuTemplate({ isMac: true, isDev: true, recent: [], current: null, appName: 'JQL Console' }, actions());
    expect(template[0]).toMatchObject({ role: 'appMenu' });
  });
});
