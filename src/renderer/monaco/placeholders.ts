/**
 * `{{name}}` placeholders in the editor: highlighted, their value for the tab's connection on hover,
 * an undefined one marked as an error, and never altered by formatting (placeholder-format.ts says
 * how). Monaco's own JSON formatter is switched off: it read a bare placeholder as an object and
 * turned `"priority": {{prio}}` into `{ {prio } }`, on paste too. The JSON worker's syntax errors on
 * a placeholder are dropped: it is not an error (an undefined one is, and says so); the syntax errors
 * a bare placeholder makes it report elsewhere are replaced by the text's real ones.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import { findVariables } from '../state/variables.ts';
import { inlineCode } from './markdown-text.ts';
import { getWorker, jsonDefaults, monaco } from './monaco.ts';
import { placeholderSafeEdits } from './placeholder-format.ts';
import { placeholderSyntaxErrors } from './placeholder-syntax.ts';

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
/** The editors' models (refreshPlaceholders was called for them): only these hold placeholders. */
const editorModels = new WeakSet<monaco.editor.ITextModel>();

/** Highlights a model's placeholders and marks the undefined ones; call when its text, connection or values change. */
export function refreshPlaceholders(model: monaco.editor.ITextModel, context: PlaceholderContext | null): void {
  if (model.isDisposed()) return;
  editorModels.add(model);
  const uses = findVariables(model.getValue());
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
  settleLater(model);
}

/** The worker's diagnostic as the JSON language writes it (LSP: 0-based positions, severity 1-4). */
interface WorkerDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  message: string;
  code?: string | number;
  source?: string;
}
/** The worker's `doValidation`, which its published type leaves out (the JSON language calls it). */
type ValidatingWorker = { doValidation(uri: string): Promise<WorkerDiagnostic[]> };

const SEVERITY = [monaco.MarkerSeverity.Info, monaco.MarkerSeverity.Error, monaco.MarkerSeverity.Warning, monaco.MarkerSeverity.Info, monaco.MarkerSeverity.Hint];

function toMarker(d: WorkerDiagnostic): monaco.editor.IMarkerData {
  const marker: monaco.editor.IMarkerData = {
    severity: SEVERITY[d.severity ?? 0] ?? monaco.MarkerSeverity.Info,
    startLineNumber: d.range.start.line + 1,
    startColumn: d.range.start.character + 1,
    endLineNumber: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
    message: d.message,
  };
  if (d.code !== undefined) marker.code = String(d.code);
  if (d.source !== undefined) marker.source = d.source;
  return marker;
}

const markerKey = (markers: readonly monaco.editor.IMarkerData[]): string =>
  JSON.stringify(markers.map((m) => [m.startLineNumber, m.startColumn, m.endLineNumber, m.endColumn, m.severity, m.message]));

/** The key of the JSON markers this module last set on a model: a change to other ones is checked again. */
const settled = new WeakMap<monaco.editor.ITextModel, string>();

/**
 * The JSON worker flags a bare placeholder as a syntax error (and a whole-string one as the wrong
 * type): those are dropped. Monaco's JSON language sets the markers of the text it validated, which
 * may be an older version than the model's (a validation started before the text changed can end
 * after the one for the new text): filtered against the placeholders of the current text, such
 * markers sat where no placeholder is any more, as errors for a text no longer there. So a marker
 * set not made here is never trusted: the worker validates the current version again, and only when
 * the model is still at that version are its markers, less those on placeholders, set.
 */
async function settleJsonMarkers(model: monaco.editor.ITextModel): Promise<void> {
  if (model.isDisposed() || !editorModels.has(model) || model.getLanguageId() !== 'json') return;
  const current = monaco.editor.getModelMarkers({ owner: JSON_OWNER, resource: model.uri });
  if (settled.get(model) === markerKey(current)) return;
  const version = model.getVersionId();
  const worker = (await (await getWorker())(model.uri)) as unknown as ValidatingWorker;
  const diagnostics = await worker.doValidation(model.uri.toString());
  // Changed meanwhile: that change starts a validation of its own, whose markers come back here.
  if (model.isDisposed() || model.getVersionId() !== version) return;
  const ranges = findVariables(model.getValue()).map((u) => [u.start, u.end] as const);
  const onPlaceholder = (m: monaco.editor.IMarkerData) => {
    const start = model.getOffsetAt({ lineNumber: m.startLineNumber, column: m.startColumn });
    const end = model.getOffsetAt({ lineNumber: m.endLineNumber, column: m.endColumn });
    return ranges.some(([a, b]) => start < b && end >= a);
  };
  let kept = diagnostics.map(toMarker).filter((m) => !onPlaceholder(m));
  // With a bare placeholder, the language's syntax errors (errors; the schema's are warnings) are of
  // the text as it misread it: the real ones replace them (placeholder-syntax.ts).
  const syntax = placeholderSyntaxErrors(model.getValue());
  if (syntax !== null) {
    kept = [
      ...kept.filter((m) => m.severity !== monaco.MarkerSeverity.Error),
      ...syntax.map((p) => ({ ...toRange(model, p.offset, p.offset + p.length), severity: monaco.MarkerSeverity.Error, message: p.message, source: 'json' })),
    ];
  }
  settled.set(model, markerKey(kept));
  monaco.editor.setModelMarkers(model, JSON_OWNER, kept);
}

function settleLater(model: monaco.editor.ITextModel): void {
  settleJsonMarkers(model).catch((error: unknown) => console.error('JSON markers could not be checked', error));
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
        if (model) settleLater(model);
      }
    }),
  ];
  installed = { dispose: () => disposables.forEach((d) => d.dispose()) };
  return installed;
}
