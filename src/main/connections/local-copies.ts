/**
 * "Reproduce locally" in the desktop app: once a copy's server is up, main keeps it like the embedded
 * one, a connection of its own in the registry (the copy's origin) with the copy's local admin token
 * in the vault. The page is told the connection id only; main signs its requests to the copy
 * (docs/protocol.md "The local admin": the credential never reaches the page).
 */
import type { ServedCopy } from '../../server/index.ts';
import type { ConnectionRegistry } from './connection-registry.ts';
import type { CredentialVault } from './credential-vault.ts';

export function holdLocalCopies(deps: { registry: Pick<ConnectionRegistry, 'setLocalCopy'>; vault: Pick<CredentialVault, 'setLocalCopy'> }): (copy: ServedCopy) => void {
  return (copy) => {
    deps.registry.setLocalCopy(copy.connectionId, copy.url);
    deps.vault.setLocalCopy(copy.connectionId, copy.localAdminToken);
  };
}
