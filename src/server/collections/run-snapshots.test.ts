// `jql-console run` with snapshots (docs/collections.md "Snapshots"): a request's approved answer
// beside it; a changed record fails with its difference in the JUnit file; --update-snapshots approves
// what came and the next run passes; no snapshot ever holds a secret or a token.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeEnvironmentFile, serializeManifest, serializeRequestFile, type RequestFile } from '../../shared/collections/format.ts';
import { tempDir } from '../testing/fixture.ts';

const root = join(import.meta.dirname, '..', '..', '..');

function cli(args: string[]) {
  return spawnSync(process.execPath, [join(root, 'bin', 'jql-console.mjs'), ...args], { cwd: root, encoding: 'utf8', timeout: 90_000 });
}

const request = (document: unknown, over: Partial<RequestFile> = {}): string =>
  serializeRequestFile({ document: JSON.stringify(document, null, 2), options: {}, assertions: [], captures: [], tags: [], ...over });

function allText(dir: string): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? allText(path) : readFileSync(path, 'utf8')))
    .join('\n');
}

describe('jql-console run with snapshots', () => {
  it('fails a missing snapshot, approves with --update-snapshots, fails a changed record with its diff, and passes again', () => {
    const dir = tempDir('jql-snapshots-');
    writeFileSync(join(dir, 'jql-collection.json'), serializeManifest({ name: 'Snapshots', format: 1, defaultEnvironment: 'demo' }));
    mkdirSync(join(dir, 'environments'));
    writeFileSync(join(dir, 'environments', 'demo.json'), serializeEnvironmentFile({ variables: { adminUser: 'admin' }, secrets: ['adminPassword'] }));
    writeFileSync(
      join(dir, '01-sign-in.jql.json'),
      request(
        { __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: '{{adminUser}}', password: '{{adminPassword}}' },
        { captures: [{ variable: 'adminToken', path: '$.__payload__.token' }], snapshot: { ignore: ['$.__payload__.expires_at', '$..last_login'] } },
      ),
    );
    writeFileSync(
      join(dir, '02-first-tickets.jql.json'),
      request({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', ordering: ['id'], limit: 3 }, title: null, status: null }, { snapshot: {} }),
    );
    // A record whose title is the secret: the answer echoes it, the snapshot must not.
    writeFileSync(
      join(dir, '03-echo.jql.json'),
      request({ __meta__: { namespace: 'documents.Folder', intent: 'create', return: { name: null } }, name: 'kept {{adminPassword}} here' }, { options: { bearer: '{{adminToken}}' }, snapshot: { ignore: ['$.__payload__.id'] } }),
    );
    const reports = tempDir('jql-snapshot-reports-');
    const run = (...extra: string[]) => cli(['run', dir, '--embedded', '--env-var', 'adminPassword=admin-demo', ...extra]);

    const first = run();
    expect(first.status).toBe(1);
    expect(first.stdout).toContain('No approved snapshot yet');

    const approve = run('--update-snapshots');
    expect(approve.status).toBe(0);
    expect(approve.stdout).toContain('Snapshot written: 02-first-tickets.snapshot.json');
    expect(approve.stdout).toContain('3 snapshots updated.');
    expect(run().status).toBe(0);

    // No file of the folder holds the secret or a token.
    const files = allText(dir);
    expect(files).not.toContain('admin-demo');
    expect(files).toContain('{{adminToken}}');
    expect(files).toContain('kept {{adminPassword}} here');
    expect(files).not.toMatch(/eyJ[\w-]+\.[\w-]+/);

    // A record changed since approval (the approved file edited, as a reviewer would see it).
    const snapshotFile = join(dir, '02-first-tickets.snapshot.json');
    const approved = JSON.parse(readFileSync(snapshotFile, 'utf8'));
    const second = approved.__payload__[1];
    const title = second.title;
    second.title = 'A title from last week';
    writeFileSync(snapshotFile, `${JSON.stringify(approved, null, 2)}\n`);
    const junit = join(reports, 'changed.xml');
    const changed = cli(['run', dir, '--embedded', '--env-var', 'adminPassword=admin-demo', '--reporter-junit', junit]);
    expect(changed.status).toBe(1);
    const report = readFileSync(junit, 'utf8');
    expect(report).toContain('<failure type="snapshot"');
    expect(report).toContain(`~ $.__payload__[id=${second.id}].title: &quot;A title from last week&quot; -&gt; ${JSON.stringify(title).replaceAll('"', '&quot;')}`);
    expect(changed.stdout).toMatch(/^✗ 02-first-tickets\.jql\.json/m);

    expect(run('--update-snapshots').status).toBe(0);
    expect(run().status).toBe(0);
  }, 240_000);
});
