/**
 * `workspace from-describe` over real HTTP: the demo server's describe becomes a workspace file that
 * `serve` takes unchanged and that describes the same schema again (code aside), and what cannot be
 * copied is said in `_notes` and in one line.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DescribeResult } from '../../shared/protocol.ts';
import { start, type RunningServer } from '../index.ts';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';
import { loadWorkspace, resolveWorkspace } from '../workspace/resolve.ts';
import { CloneCommandUsageError, workspaceCommand } from './clone-commands.ts';
import { CredentialsError } from './credentials.ts';
import { DescribeShapeError, workspaceFromDescribe } from './workspace-from-describe.ts';

const dirs: string[] = [];
const servers: RunningServer[] = [];
let demo: RunningServer;

beforeAll(async () => {
  const dataDir = tempDir('jql-fromdescribe-demo-');
  dirs.push(dataDir);
  demo = await start({ dataDir, port: 0, env: {} });
  servers.push(demo);
});

afterAll(async () => {
  for (const server of servers) await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function describeOf(url: string, token?: string): Promise<DescribeResult> {
  const response = await fetch(`${url}/jql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } }),
  });
  return ((await response.json()) as { __payload__: DescribeResult }).__payload__;
}

async function runCommand(args: string[], stdin = ''): Promise<{ out: string; err: string[] }> {
  let out = '';
  const err: string[] = [];
  await workspaceCommand(args, { out: (text) => (out += text), err: (line) => err.push(line), stdin: Readable.from([stdin]) });
  return { out, err };
}

/** The schema part of a describe: what a workspace file holds (not code, version or mode). */
function schemaOf(result: DescribeResult) {
  return {
    workspace: result.workspace,
    limits: result.limits,
    apps: Object.fromEntries(
      Object.entries(result.apps)
        .map(([name, app]) => [name, { models: app.models, collections: app.collections }] as const)
        .filter(([, app]) => Object.keys(app.models).length + Object.keys(app.collections).length > 0),
    ),
  };
}

describe('workspace from-describe', () => {
  it('writes a workspace of the demo server that serve takes unchanged and that describes the same schema', async () => {
    const { out, err } = await runCommand([demo.url]);
    const file = join(tempDir('jql-fromdescribe-file-'), 'workspace.json');
    dirs.push(join(file, '..'));
    writeFileSync(file, out);
    const workspace = JSON.parse(out);
    expect(workspace._notes.join('\n')).toMatch(/Controllers are code.*documents\.Folder \(addDocument, createFolderWithDocuments, listDocuments\)/);
    expect(workspace._notes.join('\n')).toMatch(/Hooks are code.*tickets \(before_create/);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^jql-console: controllers cannot be copied \(\d+: .*tickets\.Document.*\); they are listed in "_notes"\.$/);

    const dataDir = tempDir('jql-fromdescribe-copy-');
    dirs.push(dataDir);
    const copy = await start({ workspace: file, dataDir, port: 0, env: {} });
    servers.push(copy);
    expect(schemaOf(await describeOf(copy.url))).toEqual(schemaOf(await describeOf(demo.url)));
  });

  it('describes hidden fields, indexes, notEmpty and hooks, which a faithful copy needs', async () => {
    const source = await describeOf(demo.url);
    const ticket = source.apps.tickets!.models.Ticket!;
    expect(ticket.indexes).toEqual([['status', 'priority'], ['assignee']]);
    expect(ticket.fields.title).toMatchObject({ required: true, notEmpty: true });
    expect(ticket.fields.status!.notEmpty).toBeUndefined();
    expect(source.apps.tickets!.hooks).toContain('before_create');

    const dir = tempDir('jql-fromdescribe-hidden-');
    dirs.push(dir);
    const file = writeWorkspace({ apps: { a: { models: { M: { fields: { note: { type: 'string', null: true }, audit: { type: 'json', hidden: true, null: true } } } } } } }, dir);
    const server = await start({ workspace: file, dataDir: join(dir, 'data'), port: 0, env: {} });
    servers.push(server);
    const model = (await describeOf(server.url)).apps.a!.models.M!;
    expect(Object.keys(model.fields)).toEqual(['note']);
    expect(model.hiddenFields).toEqual({ audit: { type: 'json', required: false, null: true, lookups: [] } });
    const { workspace } = workspaceFromDescribe(await describeOf(server.url), server.url);
    expect(workspace.apps?.a?.models?.M?.fields?.audit).toEqual({ type: 'json', null: true, hidden: true });
  });

  it('reads credentials from standard input only, and signs in with them', async () => {
    const dir = tempDir('jql-fromdescribe-prod-');
    dirs.push(dir);
    const server = await start({ dataDir: dir, port: 0, production: true, env: { JQL_ADMIN: 'root:root-pass-1' } });
    servers.push(server);
    await expect(runCommand([server.url])).rejects.toThrow(/unauthenticated/);
    await expect(runCommand([server.url, '--user', 'root'])).rejects.toThrow(CredentialsError);
    await expect(runCommand([server.url, '--password', 'root-pass-1'])).rejects.toThrow(/Unknown option/);
    await expect(runCommand([server.url, '--user', 'root', '--password-stdin'], 'wrong\n')).rejects.toThrow(/unauthenticated/);
    const signedIn = await runCommand([server.url, '--user', 'root', '--password-stdin'], 'root-pass-1\n');
    expect(JSON.parse(signedIn.out)._notes.join(' ')).toMatch(/production mode/);
    expect(signedIn.out + signedIn.err.join('')).not.toContain('root-pass-1');
    await expect(runCommand([`http://root:pw@127.0.0.1:${server.port}`])).rejects.toThrow(/holds credentials/);
    await expect(runCommand([])).rejects.toThrow(CloneCommandUsageError);
  });

  it('refuses a describe that is not one, and lists what the local server cannot take', () => {
    expect(() => workspaceFromDescribe({ hello: 1 }, 'x')).toThrow(DescribeShapeError);
    expect(() => workspaceFromDescribe({ apps: { a: { models: { M: { fields: { f: { type: 'uuid' } } } } } } }, 'x')).toThrow(/type "uuid"/);
    const { workspace, notes } = workspaceFromDescribe(
      {
        workspace: 'other',
        limits: { maxLimit: 50, defaultLimit: 10, maxGalaxies: 3 },
        apps: {
          system: { models: { User: { fields: { username: { type: 'string' }, nickname: { type: 'string', null: true } } }, Group: { fields: {} } } },
          a: { models: { M: { fields: { n: { type: 'integer', null: true, maxLength: 3 } } } }, collections: { Log: { permissions: {} } } },
        },
      },
      'http://other.example',
    );
    expect(workspace.limits).toEqual({ maxLimit: 50, defaultLimit: 10 });
    expect(workspace.apps?.system).toEqual({ models: { User: { fields: { nickname: { type: 'string', null: true } } } } });
    expect(workspace.apps?.a?.collections).toEqual({ Log: {} });
    expect(notes.join('\n')).toMatch(/maxGalaxies/);
    expect(notes.join('\n')).toMatch(/system\.Group/);
    expect(notes.join('\n')).toMatch(/"maxLength" does not apply to type "integer"/);
    expect(() => resolveWorkspace(workspace, null)).not.toThrow();
  });

  it('lets a workspace file carry _notes, and only as text', () => {
    const dir = tempDir('jql-notes-');
    dirs.push(dir);
    expect(loadWorkspace(writeWorkspace({ _notes: ['copied', 'twice'], apps: {} }, dir)).name).toBe('workspace');
    expect(loadWorkspace(writeWorkspace({ _notes: 'one line', apps: {} }, dir)).name).toBe('workspace');
    expect(() => loadWorkspace(writeWorkspace({ _notes: { a: 1 }, apps: {} }, dir))).toThrow(/"_notes"/);
  });
});
