/**
 * Issue 32.2: every file the command line reads from a folder or path it was given is opened once
 * and checked on the opened file: a regular file, inside the folder, within its size cap. A manifest
 * linked to /dev/zero used to read 7 GB and abort; one linked to /etc/passwd printed its first bytes.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeManifest } from '../../shared/collections/format.ts';
import { runCli } from '../testing/cli-child.ts';
import { tempDir } from '../testing/fixture.ts';

function folderWithManifestLinkedTo(target: string): string {
  const dir = tempDir('jql-linked-');
  symlinkSync(target, join(dir, 'jql-collection.json'));
  return dir;
}

describe('files the CLI was pointed at', () => {
  it('a manifest linked to /dev/zero is refused with exit 2 in one sentence, memory bounded', async () => {
    const outcome = await runCli(['run', folderWithManifestLinkedTo('/dev/zero'), '--embedded']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe('jql-console: jql-collection.json is not a regular file');
    expect(outcome.peakRssMb).toBeLessThan(300);
  }, 30_000);

  it('a manifest linked out of the folder (to /etc/passwd) is refused, and none of its bytes are printed', async () => {
    const passwd = readFileSync('/etc/passwd', 'utf8');
    const outcome = await runCli(['run', folderWithManifestLinkedTo('/etc/passwd'), '--embedded']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/^jql-console: jql-collection.json leads outside the folder /);
    const firstLine = passwd.split('\n')[0] as string;
    expect(outcome.stderr + outcome.stdout).not.toContain(firstLine.slice(0, 8));
  }, 30_000);

  it('a manifest that is a link inside the folder is still read', async () => {
    const dir = tempDir('jql-linked-in-');
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'manifest.json'), serializeManifest({ format: 1, name: 'Linked' }));
    symlinkSync(join(dir, 'real', 'manifest.json'), join(dir, 'jql-collection.json'));
    const outcome = await runCli(['run', dir, '--embedded']);
    expect(outcome.stderr).toBe('jql-console: No request of the collection matches');
  }, 30_000);

  it('serve --workspace /dev/zero and clone --query /dev/zero are refused unread', async () => {
    const serve = await runCli(['serve', '--workspace', '/dev/zero', '--data', join(tempDir('jql-zero-data-'), 'data'), '--port', '0']);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toMatch(/\/dev\/zero.*the file is not a regular file/);
    expect(serve.peakRssMb).toBeLessThan(300);
    const clone = await runCli(['clone', 'http://127.0.0.1:9', '--query', '/dev/zero', '--out', join(tempDir('jql-zero-out-'), 'copy')]);
    expect(clone.code).toBe(1);
    expect(clone.stderr).toBe('jql-console: --query /dev/zero is not a regular file');
    expect(clone.peakRssMb).toBeLessThan(300);
  }, 30_000);

  it('a workspace file past its cap is refused without being read', async () => {
    const file = join(tempDir('jql-big-ws-'), 'workspace.json');
    writeFileSync(file, `{"name":"x","_notes":"${'a'.repeat(10 * 1024 * 1024)}"}`);
    const outcome = await runCli(['serve', '--workspace', file, '--data', join(tempDir('jql-big-data-'), 'data'), '--port', '0']);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/the file is larger than 10485760 bytes/);
  }, 30_000);
});
