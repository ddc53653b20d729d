/**
 * The browser side of the storage specs: make the console's IndexedDB writes fail the way a full
 * disk makes them fail (QuotaExceededError), and read what it stored.
 */
import type { Page } from '@playwright/test';

interface StorageGlobals {
  IDBObjectStore: { prototype: { put: (...args: unknown[]) => unknown } };
  DOMException: new (message: string, name: string) => Error;
  failStorageWrites?: boolean;
}

/** From now on (and after reloads), every put into IndexedDB throws QuotaExceededError while the switch is on. */
export async function installStorageSwitch(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = globalThis as unknown as StorageGlobals;
    const put = w.IDBObjectStore.prototype.put;
    w.IDBObjectStore.prototype.put = function (this: unknown, ...args: unknown[]) {
      if (w.failStorageWrites) throw new w.DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
  });
}

export async function failStorageWrites(page: Page, fail: boolean): Promise<void> {
  await page.evaluate((on) => void ((globalThis as unknown as StorageGlobals).failStorageWrites = on), fail);
}
