// Issue 21 point 8 (docs/protocol.md "Diagnostics"): in production mode only the role admin gets `sql` (statements and
// their parameters) with query_info_level=2; others get level 1's fields. Development mode: everyone.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningServer } from '../index.ts';
import { tempDir } from '../testing/fixture.ts';

const servers: Array<{ server: RunningServer; dataDir: string }> = [];
async function server(production: boolean): Promise<RunningServer> {
  const dataDir = tempDir();
  const running = await start({ dataDir, port: 0, env: {}, production });
  servers.push({ server: running, dataDir });
  return running;
}
afterAll(async () => {
  for (const { server: running, dataDir } of servers) {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

async function post(url: string, body: unknown, token?: string, query = '') {
  const response = await fetch(`${url}/jql${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as any;
}
const login = async (url: string, username: string, password: string) =>
  (await post(url, { __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username, password })).__payload__.token as string;

const secretFilter = { __meta__: { namespace: 'tickets.Ticket', intent: 'count', filter: { title__contains: 'a-secret-search-term' } } };

describe('query_info_level=2', () => {
  let production: RunningServer;
  let development: RunningServer;
  beforeAll(async () => {
    production = await server(true);
    development = await server(false);
  });

  it('gives anonymous and non-admin callers of a production server level 1 only: no statement, no parameter', async () => {
    const viewer = await login(production.url, 'viewer', 'viewer-demo');
    for (const token of [undefined, viewer]) {
      const answer = await post(production.url, secretFilter, token, '?query_info_level=2');
      expect(answer.__errors__).toBeNull();
      expect(answer.__system__).toEqual({ queries: expect.any(Number), time_ms: expect.any(Number) });
      expect(JSON.stringify(answer)).not.toContain('a-secret-search-term');
    }
  });

  it('gives the role admin the statements in production, and everyone in development', async () => {
    const admin = await login(production.url, 'admin', 'admin-demo');
    const asAdmin = await post(production.url, secretFilter, admin, '?query_info_level=2');
    expect(asAdmin.__system__.sql.length).toBeGreaterThan(0);
    expect(JSON.stringify(asAdmin.__system__.sql)).toContain('a-secret-search-term');
    const anonymousInDevelopment = await post(development.url, secretFilter, undefined, '?query_info_level=2');
    expect(anonymousInDevelopment.__system__.sql.length).toBeGreaterThan(0);
  });
});
