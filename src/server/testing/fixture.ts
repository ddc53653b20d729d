/**
 * Test fixtures: a fresh data directory per app, workspaces written to temp files, and a small client
 * over `app.inject` that posts JQL the way a real client would. Every folder made here is removed when
 * the test file that made it ends.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../app.ts';
import { start, type RunningServer, type StartOptions } from '../index.ts';
import type { ServerState } from '../context.ts';
import { rememberTempFolder } from './temp-folders.ts';

export interface TestApp {
  app: FastifyInstance;
  state: ServerState;
  dataDir: string;
  post(body: unknown, options?: { query?: string; token?: string; cookie?: string }): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  login(username: string, password: string): Promise<string>;
  close(): Promise<void>;
}

/** A fresh folder under the temp folder, removed when the test file ends. */
export function tempDir(prefix = 'jql-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  rememberTempFolder(dir);
  return dir;
}

/** The server, listening on a free loopback port over a fresh data directory (removed when the test file ends): close it in afterAll. */
export function startServer(options: Partial<StartOptions> = {}): Promise<RunningServer> {
  return start({ env: {}, port: 0, ...options, dataDir: options.dataDir ?? tempDir() });
}

export function writeWorkspace(workspace: unknown, dir = tempDir('jql-ws-')): string {
  const file = join(dir, 'jql.workspace.json');
  writeFileSync(file, JSON.stringify(workspace, null, 2));
  return file;
}

export async function testApp(options: Partial<AppOptions> = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? tempDir();
  const { app, state } = await buildApp({ env: {}, ...options, dataDir });
  await app.ready();
  const post: TestApp['post'] = async (body, opts = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.cookie) headers.cookie = opts.cookie;
    const response = await app.inject({
      method: 'POST',
      url: `${state.basePath}/jql${opts.query ? `?${opts.query}` : ''}`,
      headers,
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : null, headers: response.headers };
  };
  return {
    app,
    state,
    dataDir,
    post,
    async login(username, password) {
      const res = await post({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username, password });
      if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
      return res.body.__payload__.token as string;
    },
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small library workspace no other test knows, with every field type and a reverse relation. */
export const LIBRARY_WORKSPACE = {
  name: 'library',
  limits: { defaultLimit: 5, maxLimit: 20 },
  apps: {
    lib: {
      models: {
        Author: {
          fields: {
            name: { type: 'string', required: true, maxLength: 50, unique: true },
            country: { type: 'string', null: true },
            born: { type: 'date', null: true },
          },
          relations: { books: { many: 'lib.Book', via: 'author' } },
          ordering: ['name'],
          permissions: { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] },
        },
        Book: {
          fields: {
            title: { type: 'string', required: true },
            status: { type: 'string', choices: ['draft', 'published'], default: 'draft' },
            pages: { type: 'integer', null: true, min: 1 },
            rating: { type: 'number', null: true },
            in_print: { type: 'boolean', default: true },
            author: { type: 'ref', to: 'lib.Author', null: true },
            tags: { type: 'json', null: true },
            published_at: { type: 'datetime', null: true },
            secret_note: { type: 'string', null: true, writeOnly: true },
            created_at: { type: 'datetime', auto: 'create' },
          },
          search: ['title'],
          indexes: [['status', 'pages']],
          permissions: { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] },
        },
      },
    },
  },
};
