/**
 * How the renderer's modules are grouped into chunks for the first screen (issue 31.2). Left to
 * rolldown's automatic splitting, every module shared by two of the window's chunks (the entry and
 * the lazily loaded views) became a chunk of its own, and the window opening on the Query view
 * fetched 14 scripts: each a request, a background parse task and a module record of its own,
 * competing with the parse of Monaco's chunk, which the editor waits for (the floor page of
 * bench/editor-floor.ts fetches two). Grouped by what loads them, it fetches five:
 *
 * - `shell`: everything the entry imports (the window's frame, React, the stores);
 * - `query-view`: what only the Query view, and views that load Monaco anyway, import: Monaco,
 *   the editor, the response viewer. One request and one streaming parse;
 * - `views-shared`: what the Query view shares with a view that does not load Monaco (the split
 *   pane, the protocol help), so that a window opened on that view never downloads Monaco;
 * - the entry module itself, and the chunks loaded later (the other views, the JSON language,
 *   workers), as rolldown splits them.
 */
import type { CodeSplittingOptions } from 'rolldown';

/** What the grouping reads of the module graph (rolldown's ChunkingContext.getModuleInfo). */
export interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
}

export type FirstScreenChunk = 'shell' | 'query-view' | 'views-shared';

const normalize = (id: string): string => id.replace(/\\/g, '/');

/** The module and everything it imports statically (and, with `dynamic`, by import()), transitively. */
function reach(graph: ModuleGraph, from: string, dynamic = false): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    if (info) stack.push(...info.importedIds, ...(dynamic ? info.dynamicallyImportedIds : []));
  }
  return seen;
}

/** The targets of every import() the entry can reach: the lazily loaded views and what Monaco loads later. */
function dynamicEntries(graph: ModuleGraph, entry: string): Set<string> {
  return new Set([...reach(graph, entry, true)].flatMap((id) => graph.getModuleInfo(id)?.dynamicallyImportedIds ?? []));
}

/**
 * The chunk a module goes to (null: rolldown's own splitting). `entry` is the renderer's entry
 * module, `queryView` the Query view's, `isMonaco` tells Monaco's own modules.
 */
export function firstScreenChunkOf(
  graph: ModuleGraph,
  ids: { entry: string; queryView: string },
  isMonaco: (id: string) => boolean,
): (id: string) => FirstScreenChunk | null {
  let plan: Map<string, FirstScreenChunk> | null = null;
  const build = (): Map<string, FirstScreenChunk> => {
    const result = new Map<string, FirstScreenChunk>();
    const shell = reach(graph, ids.entry);
    for (const id of shell) if (id !== ids.entry) result.set(normalize(id), 'shell');
    const query = reach(graph, ids.queryView);
    // The modules of the views that never load Monaco: what the Query view shares with them stays apart.
    const withoutMonaco = new Set<string>();
    for (const view of dynamicEntries(graph, ids.entry)) {
      if (view === ids.queryView) continue;
      const closure = reach(graph, view);
      if (![...closure].some(isMonaco)) for (const id of closure) withoutMonaco.add(id);
    }
    for (const id of query) {
      if (shell.has(id)) continue;
      result.set(normalize(id), withoutMonaco.has(id) ? 'views-shared' : 'query-view');
    }
    return result;
  };
  return (id) => {
    plan ??= build();
    return plan.get(normalize(id)) ?? null;
  };
}

/** The renderer build's `output.codeSplitting`: the groups above, by module path. */
export function firstScreenChunks(ids: { entry: string; queryView: string }): CodeSplittingOptions {
  const isMonaco = (id: string) => /[\\/]node_modules[\\/]monaco-editor[\\/]/.test(id);
  let chunkOf: ((id: string) => FirstScreenChunk | null) | null = null;
  return {
    // Each group holds exactly the modules named above: by default a group takes its modules'
    // imports along, and the Query view's group took React and the stores out of the shell, so that
    // the window's first paint waited for Monaco. The groups are closed under import already (the
    // shell's imports are the shell's; the others import only their own group's or the shell's).
    includeDependenciesRecursively: false,
    groups: [
      {
        debugName: 'first-screen',
        name: (id, context) => {
          chunkOf ??= firstScreenChunkOf(context, ids, isMonaco);
          return chunkOf(id);
        },
      },
    ],
  };
}
