/**
 * Where tokens live. In the desktop app: main (safeStorage), which signs the requests itself; the
 * page may store, test and delete a token there but never read it back (issue 21.3). In a browser
 * tab: memory only, so a reload asks to sign in again; secrets never go to localStorage.
 */
import type { JqlBridge } from '../../shared/bridge.ts';

export interface SecretStore {
  readonly persistent: boolean;
  /** `main`: the desktop app's main process holds tokens and adds them to requests; `page`: this page does. */
  readonly holder: 'main' | 'page';
  /** The token, where the page may read it (`page`); always null where main holds it. */
  get(key: string): Promise<string | null>;
  has(key: string): Promise<boolean>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export function createMemorySecretStore(): SecretStore {
  const values = new Map<string, string>();
  return {
    persistent: false,
    holder: 'page',
    get: async (key) => values.get(key) ?? null,
    has: async (key) => values.has(key),
    set: async (key, value) => void values.set(key, value),
    delete: async (key) => void values.delete(key),
  };
}

export function createBridgeSecretStore(bridge: Pick<JqlBridge, 'hasSecret' | 'setSecret' | 'deleteSecret'>): SecretStore {
  return {
    persistent: true,
    holder: 'main',
    get: async () => null,
    has: (key) => bridge.hasSecret(key),
    set: (key, value) => bridge.setSecret(key, value),
    delete: (key) => bridge.deleteSecret(key),
  };
}
