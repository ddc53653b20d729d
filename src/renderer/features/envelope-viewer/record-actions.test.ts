import { describe, expect, it } from 'vitest';
import { opensContextMenu, recordIdOf, usernameOf } from './record-actions.ts';

const key = (k: string, mods: Partial<{ shiftKey: boolean; ctrlKey: boolean; altKey: boolean; metaKey: boolean }> = {}) => ({ key: k, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, ...mods });

describe('the record menu of the table', () => {
  it('opens from the keyboard with the ContextMenu key or Shift+F10, and no other key', () => {
    expect(opensContextMenu(key('ContextMenu'))).toBe(true);
    expect(opensContextMenu(key('F10', { shiftKey: true }))).toBe(true);
    expect(opensContextMenu(key('F10'))).toBe(false);
    expect(opensContextMenu(key('F10', { shiftKey: true, ctrlKey: true }))).toBe(false);
    expect(opensContextMenu(key('ArrowDown', { shiftKey: true }))).toBe(false);
  });

  it("asks about a row by its integer id, and about no row without one", () => {
    expect(recordIdOf({ id: 42, name: 'x' })).toBe(42);
    expect(recordIdOf({ id: '42' })).toBeNull();
    expect(recordIdOf({ id: 1.5 })).toBeNull();
    expect(recordIdOf({ name: 'no id' })).toBeNull();
    expect(recordIdOf([1, 2])).toBeNull();
    expect(recordIdOf(7)).toBeNull();
    expect(recordIdOf(undefined)).toBeNull();
  });

  it('takes the username as typed, without surrounding spaces, and nothing for a blank one', () => {
    expect(usernameOf('  viewer ')).toBe('viewer');
    expect(usernameOf('   ')).toBeNull();
  });
});
