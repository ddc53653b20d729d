/**
 * Where tokens live. In Electron: main's safeStorage-backed store, through the bridge. In a browser
 * tab: memory only, so a reload asks to sign in again; secrets never go to localStorage.
 */
import type { JqlBridge } from '../../shared/bridge.ts';

export interface SecretStore {
  readonly persistent: boolean;
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export function createMemorySecretStore(): SecretStore {
  const values = new Map<string, string>();
  return {
    persistent: false,
    get: async (key) => values.get(key) ?? null,
    set: async (key, value) => void values.set(key, value),
    delete: async (key) => void values.delete(key),
  };
}

export function createBridgeSecretStore(bridge: Pick<JqlBridge, 'getSecret' | 'setSecret' | 'deleteSecret'>): SecretStore {
  return {
    persistent: true,
    get: (key) => bridge.getSecret(key),
    set: (key, value) => bridge.setSecret(key, value),
    delete: (key) => bridge.deleteSecret(key),
  };
}
