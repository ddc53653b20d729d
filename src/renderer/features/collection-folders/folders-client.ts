/**
 * The collection folders the embedded server serves to this console (`serve --local-admin
 * --collections DIR`): list them, read one, write a request file back. Framework-free; it talks to
 * the embedded server through the transport, with the local admin's credential.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import { stringifyKeepingNumbers } from '../../../shared/big-number.ts';
import { readErrors } from '../../response/schema/envelope-schema.ts';
import { readFolderList, readFolderSnapshot, readImported, type FolderSnapshot, type FolderSummary, type ImportedFolder } from '../../response/schema/folders-schema.ts';
import { credentialParts, decodeJson, trimBaseUrl, type ServerTarget } from '../../transport/jql-client.ts';
import type { HttpMethod, Transport } from '../../transport/transport.ts';

export type { FolderSnapshot, FolderSummary, ImportedFolder };

/** The server answered that it serves no collection folders (it was started without --collections). */
export class NoFoldersError extends Error {
  override readonly name = 'NoFoldersError';
}

export interface FoldersClient {
  list(): Promise<FolderSummary[]>;
  read(id: string): Promise<FolderSnapshot>;
  writeRequest(id: string, path: string, text: string): Promise<FolderSnapshot>;
  /** Approves an answer as the request's snapshot (docs/collections.md "Snapshots"). */
  writeSnapshot(id: string, path: string, snapshot: JsonValue): Promise<FolderSnapshot>;
  /** A saved-queries export file, as new collection folders. */
  importExport(text: string): Promise<ImportedFolder[]>;
}

function messageOf(body: unknown, status: number): string {
  const errors = typeof body === 'object' && body !== null ? readErrors((body as { __errors__?: unknown }).__errors__, '__errors__') : [];
  const messages = errors.map((e) => e.message).filter(Boolean);
  return messages.length > 0 ? messages.join('; ') : `The server answered ${status}.`;
}

/** An answer that is not what the route answers: said, never passed on as if it were. */
function expected<T>(value: T | null, what: string): T {
  if (value === null) throw new Error(`The server did not answer ${what} in a shape this console reads.`);
  return value;
}

export function createFoldersClient(transport: Transport, target: () => ServerTarget | null): FoldersClient {
  const call = async (method: HttpMethod, path: string, body?: unknown): Promise<unknown> => {
    const server = target();
    if (!server) throw new NoFoldersError('The embedded server is not running.');
    const url = `${trimBaseUrl(server.baseUrl)}${path}`;
    const credential = credentialParts(server, url);
    const result = await transport.send({
      connectionId: server.connectionId,
      url,
      method,
      ...credential,
      headers: { Accept: 'application/json', ...credential.headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      // A snapshot's numbers go as the digits the server sent (big-number.ts), not as strings.
      ...(body ? { body: stringifyKeepingNumbers(body) } : {}),
      timeoutMs: 15_000,
    });
    const parsed = decodeJson(result.body);
    if (result.status === 404 && path === '/collections') throw new NoFoldersError('This server serves no collection folders.');
    if (result.status >= 400) throw new Error(messageOf(parsed, result.status));
    return parsed;
  };
  return {
    list: async () => expected(readFolderList(await call('GET', '/collections')), 'its list of collection folders'),
    read: async (id) => expected(readFolderSnapshot(await call('GET', `/collections/${encodeURIComponent(id)}`)), 'the collection folder'),
    writeRequest: async (id, path, text) => expected(readFolderSnapshot(await call('PUT', `/collections/${encodeURIComponent(id)}/requests`, { path, text })), 'the collection folder'),
    writeSnapshot: async (id, path, snapshot) => expected(readFolderSnapshot(await call('PUT', `/collections/${encodeURIComponent(id)}/snapshots`, { path, snapshot })), 'the collection folder'),
    importExport: async (text) => expected(readImported(await call('POST', '/collections/import', { export: text })), 'the folders it made'),
  };
}
