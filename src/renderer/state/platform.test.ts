import { describe, expect, it } from 'vitest';
import { readConsoleConfig } from './platform.ts';

const location = { origin: 'http://127.0.0.1:8787', href: 'http://127.0.0.1:8787/' };
const answer = (status: number, body: unknown) => (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;

describe('readConsoleConfig', () => {
  it('builds the embedded connection from the page origin and the base path, as the local admin without any token', async () => {
    const status = await readConsoleConfig(location, answer(200, { basePath: '/api', version: '0.1.0', localAdmin: true }));
    expect(status).toEqual({ state: 'running', url: 'http://127.0.0.1:8787/api', workspace: null, localAdmin: true });
  });

  it('works without a local admin', async () => {
    const status = await readConsoleConfig(location, answer(200, { basePath: '', version: '0.1.0' }));
    expect(status).toEqual({ state: 'running', url: 'http://127.0.0.1:8787', workspace: null, localAdmin: false });
  });

  it('reports a page not served by jql-console', async () => {
    const status = await readConsoleConfig(location, answer(404, { nope: true }));
    expect(status.state).toBe('failed');
  });
});
