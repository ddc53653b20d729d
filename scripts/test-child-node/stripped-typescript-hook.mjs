/**
 * Preloaded (NODE_OPTIONS=--import) into every Node process a test starts, `jql-console` above all:
 * a TypeScript file of this checkout is handed to Node already stripped of its types, from a folder
 * of stripped copies the test run shares (JQL_TEST_STRIPPED_TS, set by scripts/test-child-node.ts).
 * Without it every child loads Node's TypeScript stripper (WebAssembly) and strips the same ~200
 * server files again: about a quarter of the CPU time of one `jql-console` start, and the suite starts
 * it many times. The copy is found by a hash of the file's path and text, so an edited file is never
 * served stale; the stripping is Node's own (module.stripTypeScriptTypes, the function its loader
 * uses), so the code run is the same.
 * Plain JavaScript: it is loaded before any TypeScript can be.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { registerHooks, stripTypeScriptTypes } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = process.env.JQL_TEST_STRIPPED_TS;

/** Node's stripper warns once that it is experimental; a child's standard error must stay as the user sees it. */
function stripQuietly(source, path) {
  const emitWarning = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    // With sourceUrl the output is byte for byte what Node's loader runs for the file (it ends with
    // the same `//# sourceURL=` line, so stack traces name the .ts file as before).
    return stripTypeScriptTypes(source, { mode: 'strip', sourceUrl: path });
  } finally {
    process.emitWarning = emitWarning;
  }
}

function stripped(path) {
  const source = readFileSync(path, 'utf8');
  const file = join(folder, `${createHash('sha1').update(path).update('\0').update(source).digest('hex')}.js`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    const code = stripQuietly(source, path);
    mkdirSync(folder, { recursive: true });
    // Written whole under another name first: a child reading it at the same moment never sees half.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
    return code;
  }
}

if (folder) {
  registerHooks({
    load(url, context, next) {
      // Only this project's own ES modules (package "type": "module"); node_modules keeps Node's rules.
      if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/')) return next(url, context);
      return { format: 'module', source: stripped(fileURLToPath(url)), shortCircuit: true };
    },
  });
}
