/**
 * Where the console's own pages live: `app://console/…` (a privileged custom scheme served from
 * out/renderer, Electron security checklist #18), or the Vite dev server during `electron-vite dev`.
 * Navigation guards and the IPC sender check both ask this one question.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'console';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

export type AppUrlMatcher = (url: string) => boolean;

export function createAppUrlMatcher(devServerUrl?: string): AppUrlMatcher {
  const devOrigin = devServerUrl ? safeOrigin(devServerUrl) : null;
  return (url: string) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    // Node's URL gives origin "null" for custom schemes, so compare scheme and host instead.
    if (parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST) return true;
    return devOrigin !== null && parsed.origin === devOrigin;
  };
}

function safeOrigin(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Links the user may open in the system browser: web pages only, never file:, javascript: or custom schemes. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}
