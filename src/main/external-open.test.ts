import { describe, expect, it, vi } from 'vitest';
import { GESTURE_WINDOW_MS, openExternalChecked, UserGesture } from './external-open.ts';

function setup(confirmAnswer: boolean) {
  let t = 1_000;
  const gesture = new UserGesture(() => t);
  const confirm = vi.fn(async () => confirmAnswer);
  const open = vi.fn(async () => {});
  const advance = (ms: number) => (t += ms);
  return { gesture, confirm, open, advance, run: (url: string) => openExternalChecked(url, { gesture, confirm, open }) };
}

describe('openExternalChecked', () => {
  it("opens right after the user's click, without asking, once per click", async () => {
    const s = setup(false);
    s.gesture.note('mouseUp');
    s.advance(200);
    await expect(s.run('https://docs.example/jql')).resolves.toBe(true);
    expect(s.confirm).not.toHaveBeenCalled();
    // The click is used up: a second open (a script's) asks.
    await expect(s.run('https://evil.example/')).resolves.toBe(false);
    expect(s.confirm).toHaveBeenCalledWith('https://evil.example/');
    expect(s.open).toHaveBeenCalledTimes(1);
  });

  it('asks when no input came first, or it came too long ago, and opens only on yes', async () => {
    const no = setup(false);
    await expect(no.run('https://evil.example/')).resolves.toBe(false);
    expect(no.open).not.toHaveBeenCalled();
    no.gesture.note('mouseMove');
    await expect(no.run('https://evil.example/')).resolves.toBe(false);
    expect(no.confirm).toHaveBeenCalledTimes(2);

    const yes = setup(true);
    yes.gesture.note('keyDown');
    yes.advance(GESTURE_WINDOW_MS + 1);
    await expect(yes.run('https://docs.example/')).resolves.toBe(true);
    expect(yes.confirm).toHaveBeenCalledTimes(1);
  });

  it('never opens what is not a web page', async () => {
    const s = setup(true);
    s.gesture.note('mouseUp');
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'app://console/index.html']) await expect(s.run(url)).resolves.toBe(false);
    expect(s.open).not.toHaveBeenCalled();
  });
});
