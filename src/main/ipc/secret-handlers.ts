/**
 * `secrets:*`: write-only from the page (issue 21.3). It may store a token it was just given, ask
 * whether one is stored, and delete it; reading one back is no channel at all. Main reads tokens
 * itself when it signs a connection's request (connections/credential-vault.ts).
 */
import type { CredentialVault } from '../connections/credential-vault.ts';
import type { Handlers } from './register.ts';

export function secretHandlers(vault: Pick<CredentialVault, 'set' | 'has' | 'delete'>): Pick<Handlers, 'secrets:set' | 'secrets:has' | 'secrets:delete'> {
  return {
    'secrets:set': (key, value) => vault.set(key, value),
    'secrets:has': (key) => vault.has(key),
    'secrets:delete': (key) => vault.delete(key),
  };
}
