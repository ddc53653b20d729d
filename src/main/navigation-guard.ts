/**
 * No navigation away from the app and no new windows (Electron security checklist #13, #14). A link
 * to a web page opens in the system browser instead, after isSafeExternalUrl says it is one.
 */
import type { WebContents } from 'electron';
import { isSafeExternalUrl, type AppUrlMatcher } from './app-url.ts';

type GuardedContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

export interface GuardOptions {
  isAppUrl: AppUrlMatcher;
  openExternal: (url: string) => void;
}

export function installNavigationGuards(contents: GuardedContents, options: GuardOptions): void {
  const refuse = (event: { preventDefault(): void }, url: string) => {
    if (options.isAppUrl(url)) return;
    event.preventDefault();
    if (isSafeExternalUrl(url)) options.openExternal(url);
  };
  contents.on('will-navigate', (event, url) => refuse(event, url));
  contents.on('will-redirect', (event, url) => refuse(event, url));
  contents.on('will-frame-navigate', (event) => {
    // Frames inside the app (there are none) may not navigate anywhere either.
    if (!event.isMainFrame) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) options.openExternal(url);
    return { action: 'deny' };
  });
}
