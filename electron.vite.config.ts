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
import { firstScreenChunks } from './scripts/vite/first-screen-chunks.ts';
import { preloadQueryView } from './scripts/vite/preload-query-view.ts';

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
      rolldownOptions: {
        input: { index: resolve('src/renderer/index.html') },
        // Five scripts on the first screen instead of 14 (scripts/vite/first-screen-chunks.ts).
        output: { codeSplitting: firstScreenChunks({ entry: resolve('src/renderer/main.tsx'), queryView: resolve('src/renderer/app/views/QueryView.tsx') }) },
      },
    },
    worker: { format: 'es' },
    plugins: [react(), preloadQueryView(['src/renderer/app/views/QueryView.tsx', '/jsonMode.js'])],
  },
}));
