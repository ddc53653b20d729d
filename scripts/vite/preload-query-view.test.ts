import { describe, expect, it } from 'vitest';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { queryViewPreloads } from './preload-query-view.ts';

/** A built chunk as far as the plugin reads it. */
function chunk(fileName: string, bytes: number, imports: string[] = [], facadeModuleId: string | null = null, css: string[] = []): OutputChunk {
  return { type: 'chunk', fileName, code: 'x'.repeat(bytes), imports, facadeModuleId, viteMetadata: { importedCss: new Set(css), importedAssets: new Set() } } as unknown as OutputChunk;
}

/** The shape of the renderer's build: the entry, the Query view with Monaco, the JSON language. */
function bundle(): { bundle: OutputBundle; entry: OutputChunk } {
  const entry = chunk('assets/index.js', 4000, ['assets/shared.js'], '/src/renderer/index.html');
  const chunks = [
    entry,
    chunk('assets/shared.js', 100),
    chunk('assets/QueryView.js', 300, ['assets/shared.js', 'assets/SplitPane.js', 'assets/monaco.js'], '/src/renderer/app/views/QueryView.tsx'),
    chunk('assets/SplitPane.js', 400, [], null, ['assets/split.css']),
    chunk('assets/monaco.js', 39_000, [], null, ['assets/monaco.css']),
    chunk('assets/jsonMode.js', 400, ['assets/monaco.js'], '/node_modules/monaco-editor/jsonMode.js'),
    chunk('assets/DocsView.js', 2000, ['assets/shared.js'], '/src/renderer/app/views/DocsView.tsx'),
  ];
  return { bundle: Object.fromEntries(chunks.map((c) => [c.fileName, c])) as OutputBundle, entry };
}

describe('the Query view preloads in index.html', () => {
  it('preloads the Query view, what it imports and the JSON language, once each, not what the entry loads already', () => {
    const { bundle: built, entry } = bundle();
    const tags = queryViewPreloads(built, entry, ['src/renderer/app/views/QueryView.tsx', '/jsonMode.js']);
    const scripts = tags.filter((t) => t.attrs?.rel === 'modulepreload');
    expect(scripts.map((t) => t.attrs?.href).sort()).toEqual(['./assets/QueryView.js', './assets/SplitPane.js', './assets/jsonMode.js', './assets/monaco.js']);
    expect(tags.every((t) => t.tag === 'link')).toBe(true);
  });

  it('puts Monaco\'s chunk (the largest) first in <head>, ahead of the entry script, so it never waits for a free connection', () => {
    const { bundle: built, entry } = bundle();
    const tags = queryViewPreloads(built, entry, ['src/renderer/app/views/QueryView.tsx', '/jsonMode.js']);
    expect(tags[0]).toMatchObject({ attrs: { rel: 'modulepreload', href: './assets/monaco.js' }, injectTo: 'head-prepend' });
    expect(tags.filter((t) => t.attrs?.rel === 'modulepreload' && t.injectTo === 'head-prepend')).toHaveLength(1);
  });

  it("fetches the Query view's stylesheets from the head without applying them, as Vite's import() will ask for them", () => {
    const { bundle: built, entry } = bundle();
    const tags = queryViewPreloads(built, entry, ['src/renderer/app/views/QueryView.tsx', '/jsonMode.js']);
    const styles = tags.filter((t) => t.attrs?.as === 'style');
    expect(styles.map((t) => t.attrs?.href).sort()).toEqual(['./assets/monaco.css', './assets/split.css']);
    // Not render-blocking (a preload, not a stylesheet), with the CORS mode of Vite's own <link> so it is reused.
    expect(styles.every((t) => t.attrs?.rel === 'preload' && t.attrs?.crossorigin === true && t.injectTo === 'head-prepend')).toBe(true);
    expect(tags.some((t) => t.attrs?.rel === 'stylesheet')).toBe(false);
  });

  it('fails the build when a module to preload has no chunk, instead of shipping a page without the preload', () => {
    const { bundle: built, entry } = bundle();
    expect(() => queryViewPreloads(built, entry, ['src/renderer/app/views/Gone.tsx'])).toThrow(/no chunk for src\/renderer\/app\/views\/Gone.tsx/);
  });

  it('finds the Query view inside a grouped chunk (first-screen-chunks.ts), where it is no facade', () => {
    const entry = chunk('assets/index.js', 100, ['assets/shell.js'], '/src/renderer/index.html');
    const grouped = { ...chunk('assets/query-view.js', 39_000, ['assets/shell.js', 'assets/views-shared.js'], null, ['assets/monaco.css']), moduleIds: ['/node_modules/monaco-editor/esm/editor.api.js', '/src/renderer/app/views/QueryView.tsx'] } as OutputChunk;
    const chunks = [entry, chunk('assets/shell.js', 5000), grouped, chunk('assets/views-shared.js', 800), chunk('assets/jsonMode.js', 400, ['assets/query-view.js'], '/node_modules/monaco-editor/jsonMode.js')];
    const tags = queryViewPreloads(Object.fromEntries(chunks.map((c) => [c.fileName, c])) as OutputBundle, entry, ['src/renderer/app/views/QueryView.tsx', '/jsonMode.js']);
    expect(tags[0]).toMatchObject({ attrs: { rel: 'modulepreload', href: './assets/query-view.js' }, injectTo: 'head-prepend' });
    expect(tags.filter((t) => t.attrs?.rel === 'modulepreload').map((t) => t.attrs?.href).sort()).toEqual(['./assets/jsonMode.js', './assets/query-view.js', './assets/views-shared.js']);
  });
});
