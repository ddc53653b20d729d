/** `secrets:*`: the safeStorage-backed store; values never leave main except to the console window. */
import type { SecretStore } from '../secret-store.ts';
import type { Handlers } from './register.ts';

export function secretHandlers(store: Pick<SecretStore, 'get' | 'set' | 'delete'>): Pick<Handlers, 'secrets:get' | 'secrets:set' | 'secrets:delete'> {
  return {
    'secrets:get': (key) => store.get(key),
    'secrets:set': (key, value) => store.set(key, value),
    'secrets:delete': (key) => store.delete(key),
  };
}
