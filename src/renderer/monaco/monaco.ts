/**
 * The one place Monaco is loaded and its workers are set up for Vite (as graphiql's
 * setup-workers/vite.ts does). Only the editor API, the contributions a JSON console
 * uses, and the JSON language: the full package would pull every language and worker.
 */
import * as monaco from 'monaco-editor/editor/editor.api';
// The JSON language's worker module registers nearly every editor contribution and the services some
// of them need (ICodeLensCache, ITreeViewsDnDService). Left to the JSON language, it loads lazily,
// after the first editor has started the editor services: every editor made later (the stream
// filter, a second tab's editor) then fails to create those contributions ("[createInstance] …
// depends on UNKNOWN service"). Loaded here, before any editor exists, everything is registered at
// start. It is the code the JSON language loads at start anyway: it moves from that chunk (519 kB
// -> 40 kB) into the main one, and the app loads no more than before.
import 'monaco-editor/internal/common/workers';
import 'monaco-editor/features/codeEditor/register';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/suggest/register';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/format/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/smartSelect/register';
import 'monaco-editor/features/snippet/register';
import 'monaco-editor/features/wordOperations/register';
import 'monaco-editor/features/indentation/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/quickCommand/register';
import 'monaco-editor/features/placeholderText/register';
import { getWorker, jsonDefaults } from 'monaco-editor/languages/features/json/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import { takeJsonWorker } from './early-json-worker.ts';

(self as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    return label === 'json' ? takeJsonWorker() : new EditorWorker();
  },
};

monaco.editor.defineTheme('jql-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#1e1f22',
    'editorGutter.background': '#1e1f22',
    'editor.lineHighlightBackground': '#26282e',
    // A placeholder is read as a hint: 4.5:1 on the editor's background, as WCAG AA asks of text.
    'editor.placeholder.foreground': '#9ba0a9',
    // Line numbers too: Monaco's #858585 is 4.47:1 on this background, under AA's 4.5:1 (axe found it
    // with the watch banner shown, e2e/accessibility.spec.ts).
    'editorLineNumber.foreground': '#9ba0a9',
  },
});

export { monaco, jsonDefaults, getWorker };
