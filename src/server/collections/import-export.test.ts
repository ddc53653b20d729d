import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FILE_FORMAT } from '../../shared/collections/saved-export.ts';
import { tempDir } from '../testing/fixture.ts';
import { readCollection } from './folder.ts';
import { importCommand } from './import-command.ts';
import { importExport } from './import-export.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
  const dir = tempDir('jql-import-');
  dirs.push(dir);
  return dir;
}

const exportFile = (collections: unknown[]) => JSON.stringify({ format: FILE_FORMAT, version: 1, exportedAt: '2026-11-01T00:00:00.000Z', collections });
const triage = {
  name: 'Triage / nightly',
  queries: [
    { name: 'Open by priority', document: '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "limit": {{limit}}}}', description: 'what QA reads first' },
    { name: 'Open by priority', document: '{"__meta__": {"namespace": "tickets.Ticket", "intent": "count"}}' },
  ],
};

describe('importing a saved-queries export into folders', () => {
  it('makes one collection folder per collection, its queries numbered in their saved order, that the runner reads', () => {
    const root = scratch();
    expect(importExport(root, exportFile([triage]))).toEqual([{ name: 'Triage / nightly', folder: 'Triage - nightly', requests: 2 }]);
    const folder = readCollection(join(root, 'Triage - nightly'));
    expect(folder.problems).toEqual([]);
    expect(folder.manifest.name).toBe('Triage / nightly');
    expect(folder.requests.map((r) => r.name)).toEqual(['1-Open by priority', '2-Open by priority']);
    expect(folder.requests[0]?.file).toMatchObject({ description: 'what QA reads first', document: triage.queries[0]!.document });
  });

  it('never overwrites an existing folder, and refuses a file that is not an export, leaving nothing', () => {
    const root = scratch();
    mkdirSync(join(root, 'Triage - nightly'));
    writeFileSync(join(root, 'Triage - nightly', 'mine.txt'), 'keep');
    expect(importExport(root, exportFile([triage]))[0]?.folder).toBe('Triage - nightly-2');
    expect(readFileSync(join(root, 'Triage - nightly', 'mine.txt'), 'utf8')).toBe('keep');
    const before = readdirSync(root);
    expect(() => importExport(root, '{"format": "something else"}')).toThrow(/not a JQL Console collections file/);
    expect(readdirSync(root)).toEqual(before);
  });

  it('is a command: jql-console collection import EXPORT.json --into DIR', () => {
    const root = scratch();
    const file = join(scratch(), 'export.json');
    writeFileSync(file, exportFile([triage]));
    const lines: string[] = [];
    expect(importCommand([file, '--into', root], (line) => lines.push(line))).toBe(0);
    expect(lines).toEqual(['Imported "Triage / nightly" into Triage - nightly (2 requests)']);
    expect(() => importCommand([file, '--into', join(root, 'missing')])).toThrow('no such folder');
  });
});
