/**
 * The collection folders the embedded server serves to this console (`serve --local-admin
 * --collections DIR`): list them, read one, write a request file back. Framework-free; it talks to
 * the embedded server through the transport, with the local admin's credential.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import type { RequestFile } from '../../../shared/collections/format.ts';
import { credentialParts, decodeJson, trimBaseUrl, type ServerTarget } from '../../transport/jql-client.ts';
import type { HttpMethod, Transport } from '../../transport/transport.ts';

export interface FolderSummary {
  id: string;
  name: string;
}

export interface FolderSnapshot {
  id: string;
  name: string;
  version: string;
  defaultEnvironment: string | null;
  environments: Array<{ name: string; variables: Record<string, JsonValue>; secrets: string[] }>;
  requests: Array<{ path: string; name: string; file: RequestFile }>;
  problems: string[];
}

/** The server answered that it serves no collection folders (it was started without --collections). */
export class NoFoldersError extends Error {
  override readonly name = 'NoFoldersError';
}

export interface FoldersClient {
  list(): Promise<FolderSummary[]>;
  read(id: string): Promise<FolderSnapshot>;
  writeRequest(id: string, path: string, text: string): Promise<FolderSnapshot>;
  /** A saved-queries export file, as new collection folders. */
  importExport(text: string): Promise<Array<{ name: string; folder: string; requests: number }>>;
}

function messageOf(body: unknown, status: number): string {
  const errors = (body as { __errors__?: Array<{ message?: unknown }> } | undefined)?.__errors__;
  const messages = Array.isArray(errors) ? errors.map((e) => (typeof e?.message === 'string' ? e.message : '')).filter(Boolean) : [];
  return messages.length > 0 ? messages.join('; ') : `The server answered ${status}.`;
}

export function createFoldersClient(transport: Transport, target: () => ServerTarget | null): FoldersClient {
  const call = async <T>(method: HttpMethod, path: string, body?: unknown): Promise<T> => {
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
      ...(body ? { body: JSON.stringify(body) } : {}),
      timeoutMs: 15_000,
    });
    const parsed = decodeJson(result.body);
    if (result.status === 404 && path === '/collections') throw new NoFoldersError('This server serves no collection folders.');
    if (result.status >= 400) throw new Error(messageOf(parsed, result.status));
    return parsed as T;
  };
  return {
    list: async () => (await call<{ collections: FolderSummary[] }>('GET', '/collections')).collections,
    read: (id) => call<FolderSnapshot>('GET', `/collections/${encodeURIComponent(id)}`),
    writeRequest: (id, path, text) => call<FolderSnapshot>('PUT', `/collections/${encodeURIComponent(id)}/requests`, { path, text }),
    importExport: async (text) => (await call<{ imported: Array<{ name: string; folder: string; requests: number }> }>('POST', '/collections/import', { export: text })).imported,
  };
}
