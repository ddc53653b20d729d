/**
 * Test helper: a server listening on a real socket (`start()` on port 0) with a fresh data directory,
 * a fetch client for POST, PUT (multipart) and GET, and a look at what the file store holds on disk.
 */
import { openReader } from '../db/database.ts';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { start, type RunningServer, type StartOptions } from '../index.ts';
import { tempDir } from './fixture.ts';

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export interface FileServer {
  server: RunningServer;
  url: string;
  dataDir: string;
  post(body: unknown, token?: string): Promise<Answer>;
  put(form: FormData, token?: string, query?: string): Promise<Answer>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  login(username: string, password: string): Promise<string>;
  /** Runs a read-only statement on the server's database. */
  rows(sql: string, ...params: unknown[]): any[];
  /** Blobs in the content-addressed store and temp files, as paths relative to `<data>/files`. */
  stored(): { blobs: string[]; temps: string[] };
  /** Bytes of every file under `<data>/files` (store and temp folder) right now. */
  bytesOnDisk(): number;
  close(): Promise<void>;
}

export async function startFileServer(options: Partial<StartOptions> = {}): Promise<FileServer> {
  const dataDir = tempDir('jql-files-');
  const server = await start({ env: {}, ...options, dataDir, port: 0 });
  const db = openReader(join(dataDir, 'jql.sqlite'));
  const answer = async (response: Response): Promise<Answer> => {
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : JSON.parse(text), headers: response.headers };
  };
  const auth = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
  const client: FileServer = {
    server,
    url: server.url,
    dataDir,
    post: async (body, token) =>
      answer(await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth(token) }, body: JSON.stringify(body) })),
    put: async (form, token, query) => answer(await fetch(`${server.url}/jql${query ? `?${query}` : ''}`, { method: 'PUT', headers: auth(token), body: form })),
    // Read whole before answering, so no test leaves a response open (which would hold close()).
    async get(path, headers = {}) {
      const response = await fetch(`${server.url}${path}`, { headers });
      const body = await response.arrayBuffer();
      return new Response(body, { status: response.status, headers: response.headers });
    },
    async login(username, password) {
      const res = await client.post({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username, password });
      if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
      return res.body.__payload__.token as string;
    },
    rows: (sql, ...params) => db.prepare(sql).all(...params),
    stored() {
      const root = join(dataDir, 'files');
      return { blobs: walk(root).filter((path) => !path.startsWith('tmp/')), temps: walk(join(root, 'tmp')) };
    },
    bytesOnDisk() {
      const root = join(dataDir, 'files');
      return walk(root).reduce((sum, path) => sum + sizeOf(join(root, path)), 0);
    },
    async close() {
      db.close();
      server.app.server.closeAllConnections();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return client;
}

function walk(root: string, prefix = ''): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return out;
  }
  for (const name of names) {
    const path = join(root, name);
    // A running server may remove what was just listed.
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) out.push(...walk(path, `${prefix}${name}/`));
    else if (stat) out.push(`${prefix}${name}`);
  }
  return out;
}

function sizeOf(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
}

/** A multipart form: `query` as a text field (or a file when `queryAsFile`), then the file parts. */
export function form(query: unknown, files: Record<string, { data: string | Uint8Array; name?: string; type?: string }> = {}, queryAsFile = false): FormData {
  const data = new FormData();
  const text = typeof query === 'string' ? query : JSON.stringify(query);
  if (queryAsFile) data.append('query', new Blob([text], { type: 'application/json' }), 'query.json');
  else data.append('query', text);
  for (const [part, file] of Object.entries(files)) {
    data.append(part, new Blob([typeof file.data === 'string' ? file.data : Buffer.from(file.data)], file.type ? { type: file.type } : {}), file.name ?? `${part}.bin`);
  }
  return data;
}

/** A workspace with a 64 KB file limit and models holding plain and protected files. */
export const VAULT_WORKSPACE = {
  name: 'vault',
  limits: { maxFileBytes: 64 * 1024 },
  apps: {
    vault: {
      models: {
        Doc: {
          fields: {
            title: { type: 'string', required: true, maxLength: 50 },
            file: { type: 'file', null: true },
            cover: { type: 'file', protected: true, null: true },
            code: { type: 'string', null: true, unique: true },
          },
          permissions: { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] },
        },
        Locked: {
          fields: {
            file: { type: 'file' },
            owner: { type: 'ref', to: 'system.User', null: true },
          },
          permissions: { retrieve: ['manager', 'agent'], create: ['anyone'], scope: { agent: { owner: '$user.id' } } },
        },
      },
    },
  },
};
