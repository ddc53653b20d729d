/**
 * Builds the three Electron targets: main (ESM, the server bundled in, npm dependencies external),
 * the preload (CommonJS: a sandboxed preload cannot be an ES module) and the renderer (React +
 * Monaco, minified, relative base so it loads from app:// and from `jql-console serve` alike).
 */
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import type { OutputBundle, OutputChunk } from 'rolldown';

/**
 * The server finds its demo workspace next to its own module (`new URL('./workspace.json',
 * import.meta.url)`); bundled into out/main/index.js that is out/main/, so the demo's data files
 * are copied there.
 */
function copyDemoWorkspace(): Plugin {
  const from = resolve('src/server/demo');
  return {
    name: 'jql:copy-demo-workspace',
    apply: 'build',
    writeBundle(options) {
      const outDir = options.dir ?? resolve('out/main');
      if (!existsSync(from)) return;
      for (const name of readdirSync(from)) {
        const path = join(from, name);
        if (/\.(ts|tsx)$/.test(name)) continue;
        cpSync(path, join(outDir, name), { recursive: statSync(path).isDirectory() });
      }
    },
  };
}

/**
 * The window opens on the Query view, whose chunk holds Monaco: the page asks for it (and the chunks
 * it imports) with `<link rel="modulepreload">` in index.html, so its download and compilation start
 * while the HTML is parsed, beside the entry script, instead of once the entry script has run and
 * reached its `import()` (App.tsx). So is the JSON language's chunk, which Monaco imports only when the
 * first JSON model is made. `modules`: the end of each module's path whose chunk is preloaded.
 */
function preloadChunksOf(modules: readonly string[]): Plugin {
  const chunksFrom = (bundle: OutputBundle, first: OutputChunk, skip: ReadonlySet<string>): string[] => {
    const files: string[] = [];
    const visit = (fileName: string) => {
      const chunk = bundle[fileName];
      if (!chunk || chunk.type !== 'chunk' || skip.has(fileName) || files.includes(fileName)) return;
      files.push(fileName);
      for (const next of chunk.imports) visit(next);
    };
    visit(first.fileName);
    return files;
  };
  return {
    name: 'jql:preload-query-view',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
        // What the entry script already loads is preloaded by Vite itself.
        const skip = new Set(context.chunk ? [context.chunk.fileName, ...context.chunk.imports] : []);
        const files = modules.flatMap((module) => {
          const target = chunks.find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith(module));
          if (!target) throw new Error(`jql:preload-query-view: no chunk for ${module}`);
          const found = chunksFrom(bundle, target, skip);
          for (const file of found) skip.add(file);
          return found;
        });
        // The largest (Monaco's) first, ahead of the entry script: over HTTP/1.1 the page has six
        // connections to its server, and listed after the entry's own preloads and stylesheet it
        // waited for one of them to free up, starting its download only as the entry's ended.
        const size = (file: string) => (bundle[file] as OutputChunk).code.length;
        const largest = files.reduce((a, b) => (size(b) > size(a) ? b : a));
        return files.map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` },
          injectTo: file === largest ? ('head-prepend' as const) : ('head' as const),
        }));
      },
    },
  };
}

export default defineConfig(({ command, mode }) => ({
  main: {
    // A development build only when asked for (src/main/build-flavor.ts): never decided at run time.
    define: { __JQL_DEV_BUILD__: JSON.stringify(command === 'serve' || mode === 'development') },
    build: {
      outDir: 'out/main',
      rolldownOptions: { input: { index: resolve('src/main/index.ts') } },
    },
    plugins: [copyDemoWorkspace()],
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rolldownOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    base: './',
    build: {
      outDir: 'out/renderer',
      minify: true,
      chunkSizeWarningLimit: 4096,
      rolldownOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
    worker: { format: 'es' },
    plugins: [react(), preloadChunksOf(['src/renderer/app/views/QueryView.tsx', '/jsonMode.js'])],
  },
}));
