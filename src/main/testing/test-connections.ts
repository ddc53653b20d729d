/**
 * Main's connection registry, vault, reach policy and gateway as the app wires them, on in-memory
 * files and a fake resolver and dialog, for the proxies' tests.
 */
import type { ConnectionSpec } from '../../shared/bridge.ts';
import { ConnectionRegistry } from '../connections/connection-registry.ts';
import { CredentialVault, tokenKey, type SecretBackend } from '../connections/credential-vault.ts';
import { ConnectionGateway } from '../connections/gateway.ts';
import { ReachPolicy } from '../connections/reach-policy.ts';
import { memoryTextFile } from '../text-file.ts';

export function memorySecrets(): SecretBackend & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    get: async (key) => values.get(key) ?? null,
    set: async (key, value) => void values.set(key, value),
    delete: async (key) => void values.delete(key),
  };
}

export interface TestConnectionsOptions {
  /** The user's answer in main's "may the console reach this local address?" dialog. */
  allowLocal?: boolean;
  resolve?: (hostname: string) => Promise<string[]>;
}

export function testConnections(options: TestConnectionsOptions = {}) {
  const secrets = memorySecrets();
  const vault = new CredentialVault(secrets);
  const forgotten: string[] = [];
  const registry = new ConnectionRegistry({
    file: memoryTextFile(),
    forgetCredentials: async (id) => {
      forgotten.push(id);
      await vault.delete(tokenKey(id));
    },
  });
  const asked: string[] = [];
  const allowedFile = memoryTextFile();
  const reach = new ReachPolicy({
    resolve: options.resolve ?? (async () => ['93.184.216.34']),
    ask: async (origin) => {
      asked.push(origin);
      return options.allowLocal ?? true;
    },
    file: allowedFile,
  });
  const gateway = new ConnectionGateway({ registry, vault, reach });
  /** Registers a connection and, if given, the token the page stored for it. */
  const add = async (spec: ConnectionSpec, token?: string) => {
    await registry.register(spec);
    if (token) await vault.set(tokenKey(spec.id), token);
  };
  return { secrets, vault, registry, reach, gateway, asked, forgotten, allowedFile, add };
}
