import { describe, expect, it } from 'vitest';
import { firstScreenChunkOf, firstScreenChunks, type ModuleGraph } from './first-screen-chunks.ts';

/** The renderer's module graph in small: the entry, the Query view with Monaco, three other views. */
const STATIC: Record<string, string[]> = {
  '/src/main.tsx': ['/src/App.tsx', '/node_modules/react/index.js'],
  '/src/App.tsx': ['/node_modules/react/index.js', '/src/stores.ts'],
  '/src/stores.ts': [],
  '/node_modules/react/index.js': [],
  '/src/views/QueryView.tsx': ['/node_modules/react/index.js', '/src/SplitPane.tsx', '/src/editor.tsx', '/src/schema.ts'],
  '/src/editor.tsx': ['/node_modules/monaco-editor/esm/editor.api.js', '/src/stores.ts'],
  '/node_modules/monaco-editor/esm/editor.api.js': [],
  '/src/schema.ts': ['/node_modules/monaco-editor/esm/editor.api.js'],
  '/src/SplitPane.tsx': ['/src/help.ts'],
  '/src/help.ts': [],
  // Upload shares the split pane and never loads Monaco; Streams loads Monaco and shares the schema.
  '/src/views/UploadView.tsx': ['/src/SplitPane.tsx', '/src/upload.ts'],
  '/src/upload.ts': [],
  '/src/views/StreamsView.tsx': ['/src/schema.ts', '/src/streams.ts'],
  '/src/streams.ts': [],
  '/node_modules/monaco-editor/esm/json.js': ['/node_modules/monaco-editor/esm/editor.api.js'],
};
const DYNAMIC: Record<string, string[]> = {
  '/src/App.tsx': ['/src/views/QueryView.tsx', '/src/views/UploadView.tsx', '/src/views/StreamsView.tsx'],
  '/node_modules/monaco-editor/esm/editor.api.js': ['/node_modules/monaco-editor/esm/json.js'],
};
const graph: ModuleGraph = {
  getModuleInfo: (id) => (id in STATIC ? { importedIds: STATIC[id]!, dynamicallyImportedIds: DYNAMIC[id] ?? [] } : null),
};
const isMonaco = (id: string) => id.includes('/monaco-editor/');
const chunkOf = firstScreenChunkOf(graph, { entry: '/src/main.tsx', queryView: '/src/views/QueryView.tsx' }, isMonaco);

describe('the first screen in few chunks', () => {
  it('puts everything the entry imports in the shell, and the entry module in a chunk of its own', () => {
    expect(['/src/App.tsx', '/src/stores.ts', '/node_modules/react/index.js'].map(chunkOf)).toEqual(['shell', 'shell', 'shell']);
    expect(chunkOf('/src/main.tsx')).toBeNull();
  });

  it('puts the Query view, its editor and Monaco in one chunk, with what only views loading Monaco share', () => {
    for (const id of ['/src/views/QueryView.tsx', '/src/editor.tsx', '/node_modules/monaco-editor/esm/editor.api.js', '/src/schema.ts']) expect(chunkOf(id)).toBe('query-view');
  });

  it('keeps what the Query view shares with a view that never loads Monaco apart, so that view never downloads Monaco', () => {
    expect(chunkOf('/src/SplitPane.tsx')).toBe('views-shared');
    expect(chunkOf('/src/help.ts')).toBe('views-shared');
  });

  it('leaves the other views, their own modules and what Monaco loads later to rolldown', () => {
    for (const id of ['/src/views/UploadView.tsx', '/src/upload.ts', '/src/views/StreamsView.tsx', '/src/streams.ts', '/node_modules/monaco-editor/esm/json.js']) expect(chunkOf(id)).toBeNull();
  });

  it('makes groups closed under import: the shell imports only the shell, no group imports the Query view from outside it', () => {
    const order = { shell: 0, 'views-shared': 1, 'query-view': 2 } as const;
    for (const [id, imports] of Object.entries(STATIC)) {
      const from = chunkOf(id);
      if (from === null) continue;
      for (const imported of imports) {
        const to = chunkOf(imported);
        expect(to, `${id} → ${imported}`).not.toBeNull();
        expect(order[to!], `${id} → ${imported}`).toBeLessThanOrEqual(order[from]);
      }
    }
  });

  it('is what the build uses: one group named by the module, taking no dependencies along', () => {
    const options = firstScreenChunks({ entry: '/src/main.tsx', queryView: '/src/views/QueryView.tsx' });
    expect(options.includeDependenciesRecursively).toBe(false);
    const name = options.groups?.[0]?.name;
    if (typeof name !== 'function') throw new Error('the group is named by a function');
    // Rolldown's context offers more than the grouping reads.
    const context = graph as unknown as Parameters<typeof name>[1];
    expect(name('/src/stores.ts', context)).toBe('shell');
    expect(name('/src/views/QueryView.tsx', context)).toBe('query-view');
    expect(name('/src/upload.ts', context)).toBeNull();
  });
});
