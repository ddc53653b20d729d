// The caches keyed by request text (normalized keys, resolved field paths) are bounded by the
// characters they hold and forget the least recently used entry first: a flood of one-off or long
// names can neither grow them past their bound nor keep the names in use out of them.
import { describe, expect, it } from 'vitest';
import { resolveWorkspace } from '../workspace/resolve.ts';
import { cachedKeyChars, snakeKey } from './normalize.ts';
import { MAX_RESOLVED_CHARS_PER_MODEL, resolvePath, type ResolvedPath } from './paths.ts';

/** A model that references itself, so a valid path can take any number of hops. */
function treeWorkspace() {
  const ws = resolveWorkspace({ name: 'tree', apps: { t: { models: { Node: { fields: { name: { type: 'string' }, parent: { type: 'ref', to: 't.Node', null: true } } } } } } }, null);
  return { ws, node: ws.models.get('t.Node')! };
}

/** `hops` references then `name`, each separator `.` or `__` by the bits of `spelling`: distinct texts, one meaning. */
function pathText(hops: number, spelling: number): string {
  let text = '';
  for (let i = 0; i < hops; i++) text += `parent${(spelling >> i) & 1 ? '__' : '.'}`;
  return `${text}name`;
}

const asSelection = { lookups: false, errorPath: [] };

describe('the resolved-path cache of a model', () => {
  it('keeps the paths in use after more than a thousand other spellings', () => {
    const { ws, node } = treeWorkspace();
    for (let spelling = 0; spelling < 2048; spelling++) resolvePath(ws, node, pathText(11, spelling), asSelection);
    const name = resolvePath(ws, node, 'name', asSelection);
    expect(resolvePath(ws, node, 'name', asSelection)).toBe(name);
    expect(name).toMatchObject({ path: 'name', hops: [] });
  });

  it('is bounded by characters: long paths push the least recently used out, well before a thousand entries', () => {
    const { ws, node } = treeWorkspace();
    const first = resolvePath(ws, node, pathText(100, 0), asSelection);
    expect(first.hops).toHaveLength(100);
    // 200 spellings: under a count of a thousand, over the bound in characters by their text alone.
    expect(200 * pathText(100, 0).length).toBeGreaterThan(MAX_RESOLVED_CHARS_PER_MODEL);
    for (let spelling = 1; spelling <= 200; spelling++) resolvePath(ws, node, pathText(100, spelling), asSelection);
    const last = resolvePath(ws, node, pathText(100, 200), asSelection);
    expect(resolvePath(ws, node, pathText(100, 200), asSelection)).toBe(last);
    const again: ResolvedPath = resolvePath(ws, node, pathText(100, 0), asSelection);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

describe('the normalized-key cache', () => {
  it('holds at most a mebicharacter whatever the keys, and normalizes long keys all the same', () => {
    const tail = 'x'.repeat(190);
    for (let i = 0; i < 6000; i++) expect(snakeKey(`someKey${i}${tail}`)).toBe(`some_key${i}${tail}`);
    expect(cachedKeyChars()).toBeGreaterThan(0);
    expect(cachedKeyChars()).toBeLessThanOrEqual(1024 * 1024);
    const held = cachedKeyChars();
    const long = `${'a'.repeat(100_000)}B`;
    expect(snakeKey(long)).toBe(`${'a'.repeat(100_000)}_b`);
    expect(cachedKeyChars()).toBe(held);
  });
});
