/**
 * The floor of the console's opening bench (bench/console-floor.ts): a page with nothing but the
 * console's own Monaco set-up (src/renderer/monaco/monaco.ts: the same editor API, contributions,
 * JSON language and workers) and one editor on a JSON document. No React, no shell, no server: how
 * soon this draws an editor is the least the console can take. Built by the bench, never shipped.
 */
import { monaco } from '../../src/renderer/monaco/monaco.ts';

const text = JSON.stringify({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 20 }, filter: {} }, null, 2);
monaco.editor.create(document.getElementById('editor')!, {
  model: monaco.editor.createModel(text, 'json'),
  theme: 'jql-dark',
  automaticLayout: true,
  minimap: { enabled: false },
  fontSize: 13,
  lineHeight: 19,
  tabSize: 2,
  ariaLabel: 'JQL query editor',
});
