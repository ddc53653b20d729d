import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CollectionFolder } from './collection-folder.ts';
import { memoryTextFile } from './text-file.ts';

describe('the collection folder the desktop app serves', () => {
  let userData: string;
  beforeEach(() => {
    userData = mkdtempSync(join(tmpdir(), 'jql-collection-folder-'));
  });
  afterEach(() => rmSync(userData, { recursive: true, force: true }));

  it('is <userData>/collections until one is chosen, and exists so edits can be written', async () => {
    const folder = new CollectionFolder(memoryTextFile(), userData);
    await folder.load();
    expect(folder.current).toBe(join(userData, 'collections'));
  });

  it('remembers the chosen folder across starts', async () => {
    const file = memoryTextFile();
    const checkout = join(userData, 'checkout');
    mkdirSync(checkout);
    await new CollectionFolder(file, userData).choose(checkout);
    const next = new CollectionFolder(file, userData);
    await next.load();
    expect(next.current).toBe(checkout);
  });

  it('falls back to the default when the chosen folder is gone or the setting is unreadable', async () => {
    const gone = new CollectionFolder(memoryTextFile(JSON.stringify({ folder: join(userData, 'deleted') })), userData);
    await gone.load();
    expect(gone.current).toBe(join(userData, 'collections'));
    const broken = new CollectionFolder(memoryTextFile('{not json'), userData);
    await broken.load();
    expect(broken.current).toBe(join(userData, 'collections'));
  });
});
