/**
 * Opening a web page in the system browser (issue 21.8): `shell:open-external`, a link with
 * target=_blank, window.open. A page script can ask for any of them at any time, so an open that did
 * not follow the user's own click or key press (a real input event reaching the window, which no
 * script can make) asks first in main's dialog. Each input allows one open, within a short time,
 * as Chromium's transient user activation does.
 */
import { isSafeExternalUrl } from './app-url.ts';

/** Input events that count as the user acting (Electron's InputEvent types). */
const GESTURES = new Set(['mouseDown', 'mouseUp', 'keyDown', 'rawKeyDown', 'touchStart', 'touchEnd', 'gestureTap']);
export const GESTURE_WINDOW_MS = 3000;

export class UserGesture {
  private at = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;

  constructor(now: () => number = () => Date.now()) {
    this.now = now;
  }

  /** Called for each input event the window receives (webContents 'input-event'). */
  note(type: string): void {
    if (GESTURES.has(type)) this.at = this.now();
  }

  /** True once after a recent input: the open it allows uses it up. */
  consume(): boolean {
    const fresh = this.now() - this.at <= GESTURE_WINDOW_MS;
    this.at = Number.NEGATIVE_INFINITY;
    return fresh;
  }
}

export interface ExternalOpenDeps {
  gesture: Pick<UserGesture, 'consume'>;
  /** Main's dialog: open this URL in the browser? */
  confirm(url: string): Promise<boolean>;
  open(url: string): Promise<void>;
}

/** Opens `url` in the system browser when it is a web page and the user clicked for it or said yes; true when opened. */
export async function openExternalChecked(url: string, deps: ExternalOpenDeps): Promise<boolean> {
  if (!isSafeExternalUrl(url)) return false;
  if (!deps.gesture.consume() && !(await deps.confirm(url))) return false;
  await deps.open(url);
  return true;
}
