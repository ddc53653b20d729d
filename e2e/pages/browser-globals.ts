/**
 * The few browser globals the specs touch inside `page.evaluate`. The e2e code is type-checked
 * with the Node configuration (no DOM lib, which would leak into the server's types), so these
 * are declared here, narrowly, and reached through `globalThis`.
 */
export interface BrowserGlobals {
  DataTransfer: new () => { setData(type: string, value: string): void };
  ClipboardEvent: new (type: string, init: { clipboardData: unknown; bubbles: boolean; cancelable: boolean }) => unknown;
  PerformanceObserver: new (callback: (list: { getEntries(): Array<{ duration: number }> }) => void) => { observe(options: { entryTypes: string[] }): void };
  document: { activeElement: { dispatchEvent(event: unknown): boolean } | null };
  jql?: Record<string, unknown>;
  require?: unknown;
  process?: unknown;
  longestTask?: number;
}
