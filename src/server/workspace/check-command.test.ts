// `jql-console workspace check FILE --data DIR`: the preview before a start, and its exit codes.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer, tempDir, writeWorkspace } from '../testing/fixture.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const cli = (args: string[]) => spawnSync(process.execPath, [join(root, 'bin', 'jql-console.mjs'), ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });

const WORKSPACE = {
  name: 'notes',
  apps: { notes: { models: { Note: { fields: { title: { type: 'string', required: true }, body: { type: 'text', null: true } }, permissions: { retrieve: ['anyone'], create: ['anyone'] } } } } },
};

describe('jql-console workspace check', () => {
  it('exits 0 when nothing stored is lost, 3 with the preview when values would be, 2 for a broken file', async () => {
    const dir = tempDir('jql-check-');
    const file = writeWorkspace(WORKSPACE, dir);
    const data = join(dir, 'data');
    const server = await startServer({ workspace: file, dataDir: data });
    for (const title of ['one', 'two']) {
      await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ __meta__: { namespace: 'notes.Note', intent: 'create' }, title, body: `${title} body` }) });
    }
    await server.close();

    const same = cli(['workspace', 'check', file, '--data', data]);
    expect(same.stdout.trim()).toBe('No change to the stored schema.');
    expect(same.status).toBe(0);

    const added = structuredClone(WORKSPACE) as { apps: { notes: { models: { Note: { fields: Record<string, unknown> } } } } };
    added.apps.notes.models.Note.fields.pinned = { type: 'boolean', default: false };
    writeFileSync(file, JSON.stringify(added));
    const additive = cli(['workspace', 'check', file, '--data', data]);
    expect(additive.status).toBe(0);
    expect(additive.stdout).toContain('add     notes.Note.pinned: new field');

    delete added.apps.notes.models.Note.fields.body;
    writeFileSync(file, JSON.stringify(added));
    const lossy = cli(['workspace', 'check', file, '--data', data]);
    expect(lossy.status).toBe(3);
    expect(lossy.stdout).toContain('LOSES   notes.Note.body: field removed: 2 rows hold values that would no longer be served (the column is kept) (e.g. "one body", "two body")');

    writeFileSync(file, '{"apps": {');
    const broken = cli(['workspace', 'check', file, '--data', data]);
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain('not valid JSON');

    expect(cli(['workspace', 'check', file]).status).toBe(2);
    const fresh = cli(['workspace', 'check', writeWorkspace(WORKSPACE, tempDir('jql-check-fresh-')), '--data', join(dir, 'nothing-here')]);
    expect(fresh.status).toBe(0);
  }, 90_000);
});
