import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  parseEnvironmentFile,
  parseManifest,
  parseRequestFile,
  serializeEnvironmentFile,
  serializeManifest,
  serializeRequestFile,
} from '../../shared/collections/format.ts';
import { tempDir } from '../testing/fixture.ts';
import { insidePath, readCollection, selectRequests, writeRequest } from './folder.ts';

const demo = join(import.meta.dirname, '..', '..', '..', 'examples', 'demo-collection');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
}

describe('a collection folder', () => {
  it('stores every file of the demo collection exactly as it would be written: stable keys, two spaces, a final newline', () => {
    for (const path of files(demo)) {
      const text = readFileSync(path, 'utf8');
      const name = relative(demo, path).split('\\').join('/');
      expect(text.endsWith('}\n'), name).toBe(true);
      if (name === 'jql-collection.json') {
        const parsed = parseManifest(text);
        expect(parsed.ok && serializeManifest(parsed.value)).toBe(text);
      } else if (name.startsWith('environments/')) {
        const parsed = parseEnvironmentFile(text, name);
        expect(parsed.ok && serializeEnvironmentFile(parsed.value)).toBe(text);
      } else {
        const parsed = parseRequestFile(text, name);
        expect(parsed.ok ? serializeRequestFile(parsed.value) : parsed.errors).toBe(text);
      }
    }
  });

  it("runs a folder's files in name order, then its sub-folders in name order", () => {
    const folder = readCollection(demo);
    expect(folder.problems).toEqual([]);
    expect(folder.requests.map((r) => r.path)).toEqual([
      '01-open-tickets.jql.json',
      '02-sign-in-as-admin.jql.json',
      '03-create-folder.jql.json',
      '04-read-the-new-folder.jql.json',
      'errors/01-sign-in-as-viewer.jql.json',
      'errors/02-viewer-may-not-delete-a-ticket.jql.json',
      'errors/03-a-folder-needs-a-name.jql.json',
    ]);
    expect(selectRequests(folder, ['errors']).map((r) => r.name)).toEqual(['01-sign-in-as-viewer', '02-viewer-may-not-delete-a-ticket', '03-a-folder-needs-a-name']);
    expect([...folder.environments.keys()]).toEqual(['demo']);
  });

  it('keeps every path inside the folder, through .. and through symbolic links', () => {
    const dir = tempDir('jql-collection-');
    const outside = tempDir('jql-outside-');
    dirs.push(dir, outside);
    expect(() => insidePath(dir, '../x.jql.json')).toThrow('is outside the collection');
    expect(() => insidePath(dir, '/etc/passwd')).toThrow('is outside the collection');
    symlinkSync(outside, join(dir, 'escape'));
    expect(() => insidePath(dir, 'escape/a.jql.json')).toThrow('leads outside the collection');
    expect(insidePath(dir, 'sub/a.jql.json')).toBe(join(dir, 'sub', 'a.jql.json'));
  });

  it('writes a request file whole or not at all', () => {
    const dir = tempDir('jql-collection-');
    dirs.push(dir);
    writeFileSync(join(dir, 'jql-collection.json'), serializeManifest({ name: 'x', format: 1 }));
    const request = { document: '{"__meta__": {"namespace": "a.B", "intent": "count"}}', options: {}, assertions: [], captures: [], tags: [] };
    writeRequest(dir, 'sub/one.jql.json', request);
    expect(readFileSync(join(dir, 'sub', 'one.jql.json'), 'utf8')).toBe(serializeRequestFile(request));
    expect(readdirSync(join(dir, 'sub'))).toEqual(['one.jql.json']);
    expect(() => writeRequest(dir, 'sub/notes.txt', request)).toThrow('ends in .jql.json');
    mkdirSync(join(dir, 'blocked.jql.json'));
    expect(() => writeRequest(dir, 'blocked.jql.json', request)).toThrow();
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
