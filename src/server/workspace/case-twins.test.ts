/**
 * Issue 32.3: models `M` and `m` (or apps `shop` and `Shop`) passed validation, then broke the start
 * with SQLite's `table "a.m" already exists` and left jql.sqlite behind. The loader refuses them naming
 * both, and a start that fails leaves nothing in a data folder it made.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceFromDescribe } from '../clone/workspace-from-describe.ts';
import { createState } from '../state.ts';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';
import { resolveWorkspace } from './resolve.ts';

const model = { fields: { title: { type: 'string' } } };

describe('names that differ only in case', () => {
  it('are refused by the loader, naming both', () => {
    expect(() => resolveWorkspace({ apps: { a: { models: { M: model, m: model } } } }, null)).toThrow('models and collections "a.M" and "a.m" differ only in case');
    expect(() => resolveWorkspace({ apps: { shop: { models: { M: model } }, Shop: { models: { N: model } } } }, null)).toThrow('apps "shop" and "Shop" differ only in case');
    expect(() => resolveWorkspace({ apps: { System: { models: { M: model } } } }, null)).toThrow('apps "system" and "System" differ only in case');
    expect(() => resolveWorkspace({ apps: { a: { models: { Item: model }, collections: ['item'] } } }, null)).toThrow('"a.Item" and "a.item" differ only in case');
  });

  it('from a source are refused by from-describe instead of written', () => {
    const describe = { apps: { a: { models: { M: { fields: { title: { type: 'string' } } }, m: { fields: { title: { type: 'string' } } } } } } };
    expect(() => workspaceFromDescribe(describe, 'http://127.0.0.1:9')).toThrow(/"a\.M" and "a\.m" differ only in case/);
  });

  it('stop the start before a new data folder is made', async () => {
    const dataDir = join(tempDir('jql-twins-'), 'data');
    await expect(createState({ workspace: writeWorkspace({ apps: { a: { models: { M: model, m: model } } } }), dataDir, env: {} })).rejects.toThrow(/differ only in case/);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('a start that fails', () => {
  it('leaves nothing in a new data folder, or in an empty one, when a controllers or hooks module fails to load', async () => {
    for (const key of ['controllers', 'hooks']) {
      const dir = tempDir('jql-badmod-');
      writeFileSync(join(dir, 'broken.mjs'), 'throw new Error("broken on purpose");\n');
      const workspace = writeWorkspace({ apps: { a: { [key]: './broken.mjs', models: { Item: model } } } }, dir);
      const made = join(dir, 'new-data');
      await expect(createState({ workspace, dataDir: made, env: {} }), key).rejects.toThrow(/broken on purpose/);
      expect(existsSync(made), key).toBe(false);
      const empty = join(dir, 'empty-data');
      mkdirSync(empty);
      await expect(createState({ workspace, dataDir: empty, env: {} }), key).rejects.toThrow(/broken on purpose/);
      expect(readdirSync(empty), key).toEqual([]);
    }
  });

  it('keeps a data folder that already held data', async () => {
    const dir = tempDir('jql-keep-');
    writeFileSync(join(dir, 'broken.mjs'), 'throw new Error("broken on purpose");\n');
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'notes.txt'), 'mine');
    await expect(createState({ workspace: writeWorkspace({ apps: { a: { hooks: './broken.mjs' } } }, dir), dataDir, env: {} })).rejects.toThrow(/broken on purpose/);
    expect(readdirSync(dataDir)).toContain('notes.txt');
  });
});
