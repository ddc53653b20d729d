import { describe, expect, it } from 'vitest';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { queryViewPreloads } from './preload-query-view.ts';

/** A built chunk as far as the plugin reads it. */
function chunk(fileName: string, bytes: number, imports: string[] = [], facadeModuleId: string | null = null): OutputChunk {
  return { type: 'chunk', fileName, code: 'x'.repeat(bytes), imports, facadeModuleId } as unknown as OutputChunk;
}

/** The shape of the renderer's build: the entry, the Query view with Monaco, the JSON language. */
function bundle(): { bundle: OutputBundle; entry: OutputChunk } {
  const entry = chunk('assets/index.js', 4000, ['assets/shared.js'], '/src/renderer/index.html');
  const chunks = [
    entry,
    chunk('assets/shared.js', 100),
    chunk('assets/QueryView.js', 300, ['assets/shared.js', 'assets/SplitPane.js', 'assets/monaco.js'], '/src/renderer/app/views/QueryView.tsx'),
    chunk('assets/SplitPane.js', 400),
    chunk('assets/monaco.js', 39_000),
    chunk('assets/jsonMode.js', 400, ['assets/monaco.js'], '/node_modules/monaco-editor/jsonMode.js'),
    chunk('assets/DocsView.js', 2000, ['assets/shared.js'], '/src/renderer/app/views/DocsView.tsx'),
  ];
  return { bundle: Object.fromEntries(chunks.map((c) => [c.fileName, c])) as OutputBundle, entry };
}

describe('the Query view preloads in index.html', () => {
  it('preloads the Query view, what it imports and the JSON language, once each, not what the entry loads already', () => {
    const { bundle: built, entry } = bundle();
    const tags = queryViewPreloads(built, entry, ['src/renderer/app/views/QueryView.tsx', '/jsonMode.js']);
    expect(tags.map((t) => t.attrs?.href)).toEqual(['./assets/QueryView.js', './assets/SplitPane.js', './assets/monaco.js', './assets/jsonMode.js']);
    expect(tags.every((t) => t.tag === 'link' && t.attrs?.rel === 'modulepreload')).toBe(true);
  });

  it('puts Monaco\'s chunk (the largest) first in <head>, ahead of the entry script, so it never waits for a free connection', () => {
    const { bundle: built, entry } = bundle();
    const tags = queryViewPreloads(built, entry, ['src/renderer/app/views/QueryView.tsx', '/jsonMode.js']);
    expect(tags.filter((t) => t.injectTo === 'head-prepend').map((t) => t.attrs?.href)).toEqual(['./assets/monaco.js']);
    expect(tags.filter((t) => t.injectTo !== 'head-prepend').every((t) => t.injectTo === 'head')).toBe(true);
  });

  it('fails the build when a module to preload has no chunk, instead of shipping a page without the preload', () => {
    const { bundle: built, entry } = bundle();
    expect(() => queryViewPreloads(built, entry, ['src/renderer/app/views/Gone.tsx'])).toThrow(/no chunk for src\/renderer\/app\/views\/Gone.tsx/);
  });
});
