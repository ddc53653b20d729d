// The start-up gate the shell's background work waits for (the views' prefetch, the describes, the
// connections' checks): it must open once the editor exists, at once for a window opened on another
// view, and after a few seconds when the editor never comes, so that nothing waits for ever.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as EditorReady from './editor-ready.ts';

type Gate = typeof EditorReady;

async function freshGate(): Promise<Gate> {
  vi.resetModules();
  return import('./editor-ready.ts');
}

async function isSettled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('start-up gate', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stays closed while the editor is not there, and opens when it is created', async () => {
    const gate = await freshGate();
    await vi.advanceTimersByTimeAsync(gate.EDITOR_WAIT_MS - 100);
    expect(await isSettled(gate.startupSettled)).toBe(false);
    gate.markEditorReady();
    expect(await isSettled(gate.startupSettled)).toBe(true);
    expect(await isSettled(gate.editorReady)).toBe(true);
  });

  it('opens at once for a window with no editor to wait for, the editor still unknown', async () => {
    const gate = await freshGate();
    gate.settleStartup();
    expect(await isSettled(gate.startupSettled)).toBe(true);
    expect(await isSettled(gate.editorReady)).toBe(false);
  });

  it('opens after EDITOR_WAIT_MS when the editor never comes', async () => {
    const gate = await freshGate();
    await vi.advanceTimersByTimeAsync(gate.EDITOR_WAIT_MS);
    expect(await isSettled(gate.startupSettled)).toBe(true);
    expect(await isSettled(gate.editorReady)).toBe(false);
  });
});
