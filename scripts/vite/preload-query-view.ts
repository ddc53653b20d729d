/**
 * The renderer build's `<link rel="modulepreload">`s for the view the window opens on (issue 31).
 * The window opens on the Query view, whose chunk holds Monaco: the page asks for it (and the chunks
 * it imports) from index.html, so its download and compilation start while the HTML is parsed,
 * beside the entry script, instead of once the entry script has run and reached its `import()`
 * (src/renderer/app/App.tsx). So is the JSON language's chunk, which Monaco imports only when the
 * first JSON model is made.
 *
 * The largest of them (Monaco's) is the head's first element, ahead of the entry script: over HTTP/1.1
 * the page has six connections to its server, and listed after the entry script, its own preloads and
 * the stylesheet, Monaco's chunk waited for one to free up and began downloading only as the entry
 * chunk's download ended (Resource Timing, bench/editor-floor.ts: ~700 ms after navigation against
 * ~70 ms on the floor page). Its download and streaming parse are what the editor waits for longest.
 */
import type { HtmlTagDescriptor, Plugin } from 'vite';
import type { OutputBundle, OutputChunk } from 'rolldown';

/** Every chunk `first` loads (itself and what it imports, transitively), in that order, less `skip`. */
function chunksFrom(bundle: OutputBundle, first: OutputChunk, skip: ReadonlySet<string>): string[] {
  const files: string[] = [];
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (!chunk || chunk.type !== 'chunk' || skip.has(fileName) || files.includes(fileName)) return;
    files.push(fileName);
    for (const next of chunk.imports) visit(next);
  };
  visit(first.fileName);
  return files;
}

/**
 * The preload tags for the chunks of `modules` (the end of each module's path) that the entry chunk
 * (`entry`, which Vite preloads itself) does not already load; the largest one first in <head>.
 */
export function queryViewPreloads(bundle: OutputBundle, entry: OutputChunk | undefined, modules: readonly string[]): HtmlTagDescriptor[] {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const skip = new Set(entry ? [entry.fileName, ...entry.imports] : []);
  const files = modules.flatMap((module) => {
    const holds = (id: string | null | undefined) => id?.replace(/\\/g, '/').endsWith(module) === true;
    // A module grouped into a larger chunk (first-screen-chunks.ts) is that chunk's, not a facade's.
    const target = chunks.find((c) => holds(c.facadeModuleId)) ?? chunks.find((c) => (c.moduleIds ?? []).some(holds));
    if (!target) throw new Error(`jql:preload-query-view: no chunk for ${module}`);
    const found = chunksFrom(bundle, target, skip);
    for (const file of found) skip.add(file);
    return found;
  });
  if (files.length === 0) return [];
  const size = (file: string) => (bundle[file] as OutputChunk).code.length;
  const largest = files.reduce((a, b) => (size(b) > size(a) ? b : a));
  const scripts: HtmlTagDescriptor[] = files.map((file) => ({
    tag: 'link',
    attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` },
    injectTo: file === largest ? 'head-prepend' : 'head',
  }));
  // Vite's import() of a chunk first adds its stylesheets and waits for them to load (Monaco's is
  // 174 kB): asked for only once the entry chunk ran, they held the Query view's import() back after
  // Monaco's chunk was ready. Preloaded (not applied: the first paint does not wait for them), that
  // stylesheet comes from the page's memory cache. `crossorigin` as Vite's own <link> has it, or the
  // preload would not be reused.
  const styles = [...new Set(files.flatMap((file) => [...((bundle[file] as OutputChunk).viteMetadata?.importedCss ?? [])]))];
  const stylesheets: HtmlTagDescriptor[] = styles.map((file) => ({
    tag: 'link',
    attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `./${file}` },
    injectTo: 'head-prepend',
  }));
  return [scripts.find((tag) => tag.injectTo === 'head-prepend')!, ...stylesheets, ...scripts.filter((tag) => tag.injectTo !== 'head-prepend')];
}

/** The Vite plugin: `modules` as for queryViewPreloads. */
export function preloadQueryView(modules: readonly string[]): Plugin {
  return {
    name: 'jql:preload-query-view',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, context) => (context.bundle ? queryViewPreloads(context.bundle, context.chunk, modules) : []),
    },
  };
}
