/**
 * `{{name}}` placeholders in the editor: highlighted, their value for the tab's connection on hover,
 * an undefined one marked as an error, and never altered by formatting (placeholder-format.ts says
 * how). Monaco's own JSON formatter is switched off: it read a bare placeholder as an object and
 * turned `"priority": {{prio}}` into `{ {prio } }`, on paste too. The JSON worker's syntax errors on
 * a placeholder are dropped: it is not an error (an undefined one is, and says so).
 */
import type { JsonValue } from '../../shared/protocol.ts';
import { findVariables } from '../state/variables.ts';
import { inlineCode } from './markdown-text.ts';
import { jsonDefaults, monaco } from './monaco.ts';
import { placeholderSafeEdits } from './placeholder-format.ts';

export interface PlaceholderContext {
  connectionName: string;
  values: Readonly<Record<string, JsonValue>>;
}

const MARKER_OWNER = 'jql-variables';
const JSON_OWNER = 'json';
const MAX_SHOWN_VALUE = 300;

function toRange(model: monaco.editor.ITextModel, start: number, end: number): monaco.IRange {
  const a = model.getPositionAt(start);
  const b = model.getPositionAt(end);
  return { startLineNumber: a.lineNumber, startColumn: a.column, endLineNumber: b.lineNumber, endColumn: b.column };
}

function shown(value: JsonValue): string {
  const text = JSON.stringify(value);
  return text.length > MAX_SHOWN_VALUE ? `${text.slice(0, MAX_SHOWN_VALUE)}…` : text;
}

const decorations = new WeakMap<monaco.editor.ITextModel, string[]>();
const placeholderRanges = new WeakMap<monaco.editor.ITextModel, Array<[number, number]>>();

/** Highlights a model's placeholders and marks the undefined ones; call when its text, connection or values change. */
export function refreshPlaceholders(model: monaco.editor.ITextModel, context: PlaceholderContext | null): void {
  if (model.isDisposed()) return;
  const uses = findVariables(model.getValue());
  placeholderRanges.set(
    model,
    uses.map((u) => [u.start, u.end]),
  );
  const defined = (name: string) => context !== null && Object.hasOwn(context.values, name);
  const next = uses.map((u) => ({
    range: toRange(model, u.start, u.end),
    options: { inlineClassName: defined(u.name) ? 'jql-variable' : 'jql-variable jql-variable-missing', stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges },
  }));
  decorations.set(model, model.deltaDecorations(decorations.get(model) ?? [], next));
  monaco.editor.setModelMarkers(
    model,
    MARKER_OWNER,
    uses
      .filter((u) => !defined(u.name))
      .map((u) => ({
        ...toRange(model, u.start, u.end),
        severity: monaco.MarkerSeverity.Error,
        // The Saved view's sentence, so the editor, the run and the Saved view say the same thing.
        message: `{{${u.name}}} is not defined for ${context ? context.connectionName : 'this connection'} (line ${u.line}, column ${u.column})`,
        source: 'variables',
      })),
  );
  dropJsonMarkersOnPlaceholders(model);
}

/** The JSON worker flags a bare placeholder as a syntax error (and a whole-string one as the wrong type): drop those. */
function dropJsonMarkersOnPlaceholders(model: monaco.editor.ITextModel): void {
  const ranges = placeholderRanges.get(model);
  if (!ranges || ranges.length === 0 || model.isDisposed()) return;
  const markers = monaco.editor.getModelMarkers({ owner: JSON_OWNER, resource: model.uri });
  const onPlaceholder = (m: monaco.editor.IMarker) => {
    const start = model.getOffsetAt({ lineNumber: m.startLineNumber, column: m.startColumn });
    const end = model.getOffsetAt({ lineNumber: m.endLineNumber, column: m.endColumn });
    return ranges.some(([a, b]) => start < b && end >= a);
  };
  const kept = markers.filter((m) => !onPlaceholder(m));
  if (kept.length !== markers.length) monaco.editor.setModelMarkers(model, JSON_OWNER, kept);
}

let installed: monaco.IDisposable | null = null;

/** Hover, formatting and the JSON-marker filter, registered once for every JSON model. */
export function installPlaceholderSupport(contextOf: (uri: monaco.Uri) => PlaceholderContext | null): monaco.IDisposable {
  if (installed) return installed;
  // Monaco's JSON worker formatter would rewrite bare placeholders: formatting is ours.
  jsonDefaults.setModeConfiguration({ ...jsonDefaults.modeConfiguration, documentFormattingEdits: false, documentRangeFormattingEdits: false });
  const toEdits = (model: monaco.editor.ITextModel, range: monaco.IRange | null, options: monaco.languages.FormattingOptions): monaco.languages.TextEdit[] => {
    const offsets = range ? { offset: model.getOffsetAt({ lineNumber: range.startLineNumber, column: range.startColumn }), length: 0 } : undefined;
    if (offsets && range) offsets.length = model.getOffsetAt({ lineNumber: range.endLineNumber, column: range.endColumn }) - offsets.offset;
    return placeholderSafeEdits(model.getValue(), offsets, { tabSize: options.tabSize, insertSpaces: options.insertSpaces, eol: model.getEOL() }).map((e) => ({
      range: toRange(model, e.offset, e.offset + e.length),
      text: e.content,
    }));
  };
  const disposables = [
    monaco.languages.registerDocumentFormattingEditProvider('json', { provideDocumentFormattingEdits: (model, options) => toEdits(model, null, options) }),
    monaco.languages.registerDocumentRangeFormattingEditProvider('json', { provideDocumentRangeFormattingEdits: (model, range, options) => toEdits(model, range, options) }),
    monaco.languages.registerHoverProvider('json', {
      provideHover(model, position) {
        const offset = model.getOffsetAt(position);
        const use = findVariables(model.getValue()).find((u) => u.start <= offset && offset < u.end);
        if (!use) return null;
        const context = contextOf(model.uri);
        const name = `\`{{${use.name}}}\``;
        const contents =
          context && Object.hasOwn(context.values, use.name)
            ? [{ value: `${name} on ${inlineCode(context.connectionName)}:` }, { value: inlineCode(shown(context.values[use.name]!)) }]
            : [{ value: `${name} is not defined for ${context ? inlineCode(context.connectionName) : 'this connection'}. Define it in Saved → Variables of that connection.` }];
        return { range: toRange(model, use.start, use.end), contents };
      },
    }),
    monaco.editor.onDidChangeMarkers((uris) => {
      for (const uri of uris) {
        const model = monaco.editor.getModel(uri);
        if (model) dropJsonMarkersOnPlaceholders(model);
      }
    }),
  ];
  installed = { dispose: () => disposables.forEach((d) => d.dispose()) };
  return installed;
}
