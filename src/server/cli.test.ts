import { execFileSync, spawn, type ChildProcess, type SpawnOptionsWithStdioTuple } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, tempDir, writeWorkspace } from './testing/fixture.ts';

const BIN = fileURLToPath(new URL('../../bin/jql-console.mjs', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** `jql-console ARGS` under this Node; `asCommand` runs the file itself, as npx does, through its `#!` line. */
function run(args: string[], env: Record<string, string> = {}, stdin?: string, asCommand = false) {
  // As a command, `env` finds `node` on the PATH: this Node's folder first, as npm and npx put it.
  const path = asCommand ? { PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` } : {};
  const options: SpawnOptionsWithStdioTuple<'pipe', 'pipe', 'pipe'> = { env: { ...process.env, ...env, ...path }, stdio: ['pipe', 'pipe', 'pipe'] };
  const child = asCommand ? spawn(BIN, args, options) : spawn(process.execPath, [BIN, ...args], options);
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  if (stdin !== undefined) child.stdin.end(stdin);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /JQL server listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1] as string);
    });
    child.on('exit', () => reject(new Error(`exited before ready: ${stderr}`)));
  });
  // Tests that expect a failed start never await `ready`.
  ready.catch(() => undefined);
  return { child, ready, exited, out: () => stdout, err: () => stderr };
}

async function jql(url: string, body: unknown, token?: string) {
  const response = await fetch(`${url}/jql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('jql-console serve', () => {
  it('prints its ready line, answers over a real socket with a base path, and stops cleanly on SIGTERM', async () => {
    const server = run(['serve', '--port', '0', '--data', tempDir(), '--base-path', '/api']);
    const url = await server.ready;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    const res = await jql(url, { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 2 }, title: null, status: null });
    expect(res.status).toBe(200);
    expect(res.body.__payload__).toHaveLength(2);
    expect(res.body.__extras__.filtered).toBeGreaterThanOrEqual(300);
    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('runs, as the command and as `npm run serve`, on a Node without the memory reducer that would shrink its heap when idle', async () => {
    const server = run(['serve', '--port', '0', '--data', tempDir()], {}, undefined, true);
    await server.ready;
    const commandLine = execFileSync('ps', ['-o', 'args=', '-p', String(server.child.pid)], { encoding: 'utf8' });
    expect(commandLine).toMatch(/node --no-memory-reducer \S*jql-console\.mjs serve/);
    const scripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts as Record<string, string>;
    expect(scripts.serve).toBe('node --no-memory-reducer bin/jql-console.mjs serve');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('serves a workspace no other test knows, with JQL_ADMIN able to log in and create users', async () => {
    const workspace = writeWorkspace({
      name: 'zoo',
      apps: { zoo: { models: { Animal: { fields: { name: { type: 'string', required: true }, legs: { type: 'integer', default: 4 } } } } } },
    });
    const server = run(['serve', '--port', '0', '--data', tempDir(), '--workspace', workspace], { JQL_ADMIN: 'keeper:s3cret:with:colons' });
    const url = await server.ready;
    const login = await jql(url, { __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: 'keeper', password: 's3cret:with:colons' });
    expect(login.status).toBe(200);
    const token = login.body.__payload__.token;
    const animal = await jql(url, { __meta__: { namespace: 'zoo.Animal', intent: 'create' }, name: 'Okapi' }, token);
    expect(animal.body.__payload__).toMatchObject({ name: 'Okapi', legs: 4 });
    const user = await jql(url, { __meta__: { namespace: 'system.User', intent: 'create' }, username: 'visitor', password: 'pw' }, token);
    expect(user.status).toBe(200);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
  });

  it('refuses a bad workspace with a message naming file, app, model and field, and no stack trace', async () => {
    const bad = structuredClone(LIBRARY_WORKSPACE) as any;
    bad.apps.lib.models.Book.fields.pages.type = 'int';
    const file = writeWorkspace(bad);
    const server = run(['serve', '--port', '0', '--data', tempDir(), '--workspace', file]);
    expect(await server.exited).toBe(1);
    expect(server.err()).toContain(file);
    expect(server.err()).toMatch(/app "lib".*model "Book".*field "pages"/);
    expect(server.err()).not.toMatch(/\n\s+at /);
  });

  it('--local-admin prints the launch URL after the ready line, and the URL makes a browser the local admin', async () => {
    const data = tempDir();
    try {
      const server = run(['serve', '--port', '0', '--data', data, '--local-admin']);
      const url = await server.ready;
      const launch = await new Promise<string>((resolve) => {
        const check = () => {
          const match = /^Open (http:\/\/127\.0\.0\.1:\d+\/\?key=[\w-]{43})$/m.exec(server.out());
          if (match) resolve(match[1] as string);
        };
        server.child.stdout?.on('data', check);
        check();
      });
      expect(server.out().indexOf('JQL server listening on')).toBeLessThan(server.out().indexOf('Open http'));
      expect(new URL(launch).origin).toBe(url);
      const exchange = await fetch(launch, { redirect: 'manual' });
      expect(exchange.headers.getSetCookie()[0]).toMatch(new RegExp(`^jql_local_admin_${new URL(url).port}=`));
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('refuses --local-admin with a host other machines can reach: exit code 2 and one sentence', async () => {
    const data = join(tmpdir(), `jql-cli-never-created-${process.pid}`);
    const server = run(['serve', '--port', '0', '--data', data, '--local-admin', '--host', '0.0.0.0']);
    expect(await server.exited).toBe(2);
    const lines = server.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^jql-console: --local-admin .*loopback --host.*sign in as real users/);
    expect(server.out()).toBe('');
    expect(existsSync(data)).toBe(false);
  });

  it('user add reads the password from standard input', async () => {
    const data = tempDir();
    const workspace = writeWorkspace(LIBRARY_WORKSPACE);
    const add = run(['user', 'add', '--workspace', workspace, '--data', data, '--username', 'qa', '--roles', 'agent,admin'], {}, 'pa55word\n');
    expect(await add.exited).toBe(0);
    expect(add.out()).toContain('Created user qa');
    const server = run(['serve', '--port', '0', '--data', data, '--workspace', workspace]);
    const url = await server.ready;
    const login = await jql(url, { __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: 'qa', password: 'pa55word' });
    expect(login.body.__payload__.user.roles).toEqual(['agent', 'admin']);
  });
});
