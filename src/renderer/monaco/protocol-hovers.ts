/**
 * The editor's protocol hovers (protocol-hover-content.ts) on every JSON model, and the opener of
 * their links and of the error markers' code links: both open the console's Docs view. Monaco's own
 * JSON hovers (schema descriptions rendered as Markdown, where `<app>.<Model>` became HTML and a URL
 * in a name a link) are switched off: these say what they said, safely.
 */
import type { DescribeResult } from '../../shared/protocol.ts';
import { OPEN_DOCS_COMMAND, placeOfLink, type DocPlace } from '../components/doc-anchors.ts';
import { jsonDefaults, monaco } from './monaco.ts';
import { protocolHoverAt } from './protocol-hover-content.ts';

let installed: monaco.IDisposable | null = null;

/**
 * Registers the hovers for every JSON model and the opener of their links; `describeOf` gives the
 * describe of a model's connection, `openDocs` shows a place of the docs.
 */
export function installProtocolHovers(describeOf: (uri: monaco.Uri) => DescribeResult | null, openDocs: (place: DocPlace) => void): monaco.IDisposable {
  if (installed) return installed;
  jsonDefaults.setModeConfiguration({ ...jsonDefaults.modeConfiguration, hovers: false });
  const disposables = [
    monaco.languages.registerHoverProvider('json', {
      provideHover(model, position) {
        const hover = protocolHoverAt(model.getValue(), model.getOffsetAt(position), describeOf(model.uri));
        if (!hover) return null;
        const start = model.getPositionAt(hover.start);
        const end = model.getPositionAt(hover.end);
        return {
          range: { startLineNumber: start.lineNumber, startColumn: start.column, endLineNumber: end.lineNumber, endColumn: end.column },
          contents: hover.contents.map((value) => ({ value, isTrusted: { enabledCommands: [OPEN_DOCS_COMMAND] } })),
        };
      },
    }),
    // Hover links and the error markers' code links are opened here, never by the browser.
    monaco.editor.registerLinkOpener({
      open(uri) {
        const place = placeOfLink(uri);
        if (!place) return false;
        openDocs(place);
        return true;
      },
    }),
  ];
  installed = { dispose: () => disposables.forEach((d) => d.dispose()) };
  return installed;
}
