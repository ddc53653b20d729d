import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serializeEnvironmentFile, serializeManifest, serializeRequestFile, type RequestFile } from '../../shared/collections/format.ts';
import { tempDir } from '../testing/fixture.ts';
import { runCommand, RunUsageError, type RunIo } from './run-command.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const demo = join(root, 'examples', 'demo-collection');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = tempDir('jql-collection-');
  dirs.push(dir);
  return dir;
}

function cli(args: string[], input = '') {
  return spawnSync(process.execPath, [join(root, 'bin', 'jql-console.mjs'), ...args], { cwd: root, encoding: 'utf8', input, timeout: 60_000 });
}

/** `cli` without waiting for it, so several can run at once. */
function cliStarted(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(root, 'bin', 'jql-console.mjs'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

function io(lines: string[] = [], password = ''): RunIo {
  return { out: (line) => lines.push(line), readPassword: async () => password, env: {} };
}

const request = (document: unknown, over: Partial<RequestFile> = {}): string =>
  serializeRequestFile({ document: JSON.stringify(document, null, 2), options: {}, assertions: [], captures: [], tags: [], ...over });

function collection(files: Record<string, string>, environments: Record<string, string> = {}): string {
  const dir = scratch();
  writeFileSync(join(dir, 'jql-collection.json'), serializeManifest({ name: 'Scratch', format: 1 }));
  for (const [path, text] of Object.entries({ ...files, ...Object.fromEntries(Object.entries(environments).map(([k, v]) => [`environments/${k}.json`, v])) })) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? allFiles(join(dir, name)) : [join(dir, name)]));
}

describe('jql-console run', () => {
  it('runs the demo collection against a fresh embedded demo server and passes, leaving no data directory behind', () => {
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith('jql-run-')).length;
    const result = cli(['run', 'examples/demo-collection', '--embedded']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^✓ 03-create-folder\.jql\.json {2}200 /m);
    expect(result.stdout).toMatch(/^requests\s+7\s+7\s+0$/m);
    const after = readdirSync(tmpdir()).filter((n) => n.startsWith('jql-run-')).length;
    expect(after).toBe(before);
  }, 60_000);

  it('fails a broken copy with exit code 1 and a JUnit file naming the failed assertion', () => {
    const copy = scratch();
    cpSync(demo, copy, { recursive: true });
    const file = join(copy, '04-read-the-new-folder.jql.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"value": "Quarterly reports"', '"value": "Annual reports"'));
    const junit = join(scratch(), 'junit.xml');
    const json = join(scratch(), 'report.json');
    const result = cli(['run', copy, '--embedded', '--reporter-junit', junit, '--reporter-json', json]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('✗ $.__payload__.name is "Quarterly reports"; expected eq "Annual reports"');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuites name="Demo helpdesk" tests="7" failures="1" skipped="0"');
    expect(xml).toMatch(/<testcase classname="Demo helpdesk" name="04-read-the-new-folder" time="[\d.]+">\s*<failure type="assertion" message="\$\.__payload__\.name is &quot;Quarterly reports&quot;; expected eq &quot;Annual reports&quot;">/);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report).toMatchObject({ collection: 'Demo helpdesk', passed: 6, failed: 1 });
    expect(report.requests[3].assertions[1]).toMatchObject({ passed: false, actual: 'Quarterly reports' });
  }, 60_000);

  it('is the N+1 guard: queries lte fails once a nested selection reaches a reverse relation at a second level', async () => {
    const read = (selection: Record<string, unknown>) =>
      request(
        { __meta__: { namespace: 'documents.Folder', intent: 'retrieve', limit: 50 }, name: null, ...selection },
        { assertions: [{ target: 'status', op: 'eq', value: 200 }, { target: 'extras.queries', op: 'lte', value: 2 }] },
      );
    // One statement for the page, one per nested level: a second reverse level costs two more.
    const flatDir = collection({ 'folders.jql.json': read({ documents: { name: null } }) });
    expect(await runCommand([flatDir, '--embedded'], io())).toBe(0);
    const lines: string[] = [];
    const deepDir = collection({ 'folders.jql.json': read({ documents: { name: null, folder: { name: null, documents: { name: null } } } }) });
    expect(await runCommand([deepDir, '--embedded'], io(lines))).toBe(1);
    expect(lines).toContain('    ✗ __extras__.queries is 4; expected lte 2');
  }, 60_000);

  it('never writes a secret variable into any file of the folder, reports included', async () => {
    const dir = collection(
      {
        'login.jql.json': request(
          { __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: 'admin', password: '{{adminPassword}}' },
          { captures: [{ variable: 'token', path: '$.__payload__.token' }], assertions: [{ target: 'status', op: 'eq', value: 200 }] },
        ),
        'whoami.jql.json': request(
          { __meta__: { namespace: 'system.User', intent: 'verifyAuthentication', schema: 'controller' }, username: null },
          { options: { bearer: '{{token}}' }, assertions: [{ target: 'path', path: '$.__payload__.username', op: 'eq', value: 'admin' }] },
        ),
      },
      { ci: serializeEnvironmentFile({ variables: {}, secrets: ['adminPassword'] }) },
    );
    const code = await runCommand([dir, '--embedded', '--env', 'ci', '--env-var', 'adminPassword=admin-demo', '--reporter-json', join(dir, 'report.json'), '--reporter-junit', join(dir, 'junit.xml')], io());
    expect(code).toBe(0);
    expect(existsSync(join(dir, 'report.json'))).toBe(true);
    for (const path of allFiles(dir)) {
      const text = readFileSync(path, 'utf8');
      expect(text, path).not.toContain('admin-demo');
      expect(text, path).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
    }
  }, 60_000);

  it('a failed run prints and reports neither a live token nor a secret the server echoed back (issue 32.6)', async () => {
    const dir = collection(
      {
        '01-login.jql.json': request(
          { __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: 'admin', password: '{{adminPassword}}' },
          { captures: [{ variable: 'token', path: '$.__payload__.token' }], assertions: [{ target: 'path', path: '$.__payload__.token', op: 'eq', value: 'not-this' }] },
        ),
        '02-echo.jql.json': request(
          { __meta__: { namespace: 'nowhere.X{{adminPassword}}', intent: 'retrieve' } },
          { options: { bearer: '{{token}}' }, assertions: [{ target: 'path', path: '$.__errors__[0].message', op: 'eq', value: 'not-this' }] },
        ),
      },
      { ci: serializeEnvironmentFile({ variables: {}, secrets: ['adminPassword'] }) },
    );
    const lines: string[] = [];
    const reports = scratch();
    const code = await runCommand([dir, '--embedded', '--env', 'ci', '--env-var', 'adminPassword=admin-demo', '--reporter-json', join(reports, 'report.json'), '--reporter-junit', join(reports, 'junit.xml')], io(lines));
    expect(code).toBe(1);
    const stdout = lines.join('\n');
    // Each failed assertion is still told, with the variable's name where its value was.
    expect(stdout).toContain('{{token}}');
    expect(stdout).toContain('X{{adminPassword}}');
    for (const [name, text] of [['stdout', stdout], ['report.json', readFileSync(join(reports, 'report.json'), 'utf8')], ['junit.xml', readFileSync(join(reports, 'junit.xml'), 'utf8')]] as const) {
      expect(text, name).not.toContain('admin-demo');
      expect(text, name).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
      expect(text, name).toContain('{{token}}');
    }
  }, 60_000);

  it('takes a secret from JQL_VAR_<NAME>, and refuses to start when a used secret has no value (exit 2)', async () => {
    const dir = collection(
      { 'login.jql.json': request({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: 'admin', password: '{{adminPassword}}' }, { assertions: [{ target: 'status', op: 'eq', value: 200 }] }) },
      { ci: serializeEnvironmentFile({ variables: {}, secrets: ['adminPassword'] }) },
    );
    await expect(runCommand([dir, '--embedded', '--env', 'ci'], io())).rejects.toThrow(new RunUsageError('Secret "adminPassword" has no value: pass --env-var adminPassword=… or set JQL_VAR_adminPassword'));
    expect(await runCommand([dir, '--embedded', '--env', 'ci'], { ...io(), env: { JQL_VAR_adminPassword: 'admin-demo' } })).toBe(0);
  }, 60_000);

  it('answers bad usage, a missing folder and an unknown environment with exit code 2 and one sentence', async () => {
    // Six refusals, started together: each is mostly Node starting.
    const [missing, env, noTarget, bothTargets, unknown, outside] = await Promise.all(
      [
        ['run', 'no/such/folder', '--embedded'],
        ['run', 'examples/demo-collection', '--embedded', '--env', 'staging'],
        ['run', 'examples/demo-collection'],
        ['run', 'examples/demo-collection', '--embedded', '--server', 'http://x'],
        ['run', 'examples/demo-collection', '--embedded', '--frobnicate'],
        ['run', 'examples/demo-collection', '../../package.json', '--embedded'],
      ].map(cliStarted),
    );
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('jql-console: no/such/folder is not a folder');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    expect(env.status).toBe(2);
    expect(env.stderr).toContain('No environment "staging" in examples/demo-collection (it has demo)');
    expect(noTarget.status).toBe(2);
    expect(bothTargets.status).toBe(2);
    expect(unknown.status).toBe(2);
    expect(outside.status).toBe(2);
    expect(outside.stderr).toContain('is outside the collection');
  }, 60_000);

  it('runs only the paths and tags asked for, and signs in with --user and a password on standard input', async () => {
    const lines: string[] = [];
    expect(await runCommand([demo, 'errors', '--embedded', '--tags', 'nothing-has-this'], io(lines)).catch((e: Error) => e.message)).toBe('No request of the collection matches');
    const smoke: string[] = [];
    expect(await runCommand([demo, '--embedded', '--tags', 'smoke'], io(smoke))).toBe(0);
    expect(smoke.filter((l) => l.startsWith('✓'))).toHaveLength(2);
    const whoami = collection({
      'me.jql.json': request({ __meta__: { namespace: 'system.User', intent: 'verifyAuthentication', schema: 'controller' }, roles: null }, { assertions: [{ target: 'path', path: '$.__payload__.roles', op: 'contains', value: 'agent' }] }),
    });
    expect(await runCommand([whoami, '--embedded', '--user', 'agent', '--password-stdin'], io([], 'agent-demo'))).toBe(0);
    await expect(runCommand([whoami, '--embedded', '--user', 'agent', '--password-stdin'], io([], 'wrong'))).rejects.toThrow(/Signing in as agent failed/);
  }, 60_000);
});
