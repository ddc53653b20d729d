/** `window.jql` as the renderer sees it: present in the desktop app, absent in a browser tab. */
import type { JqlBridge } from '../shared/bridge.ts';

declare global {
  interface Window {
    jql?: JqlBridge;
  }
}

export {};
