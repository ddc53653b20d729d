/**
 * The center column: tab bar, toolbar (connection, templates, format, run), the editor, and its
 * status bar (schema state, diagnostics level). It also hands each tab's schema to Monaco from its connection's describe.
 */
import { useEffect, useRef, type JSX, type ReactNode } from 'react';
import type { DescribeResult } from '../../../shared/protocol.ts';
import { DeploymentBadge } from '../../components/DeploymentBadge.tsx';
import type { monaco } from '../../monaco/monaco.ts';
import { lazySchemaNote, namespacesIn } from '../../monaco/jql-schema.ts';
import { applySchemas } from '../../monaco/schema-registry.ts';
import { useServices, useStore } from '../../state/services.ts';
import type { QueryInfoLevel } from '../../state/tabs-store.ts';
import { EditorTabs } from './EditorTabs.tsx';
import { QueryEditor } from './QueryEditor.tsx';
import { TemplateMenu } from './TemplateMenu.tsx';
import { useTabDescribes } from '../../state/use-describes.ts';

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);

/** `toolbarExtra`: actions the app adds to the toolbar ("Reproduce locally"). */
export function QueryEditorPane(props: { toolbarExtra?: ReactNode } = {}): JSX.Element {
  const { tabs, connections, results, run, cancel, workbench } = useServices();
  const tabState = useStore(tabs);
  const connState = useStore(connections);
  const resultState = useStore(results);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const active = tabState.tabs.find((t) => t.id === tabState.activeId) ?? tabState.tabs[0]!;

  const describes = useTabDescribes();

  // The namespaces each tab names: a large describe's schema covers those (monaco/jql-schema.ts).
  const tabMap = tabState.tabs.map((t) => `${t.id}:${t.connectionId}:${namespacesIn(t.text.slice(0, 200_000)).join('|')}`).join(',');
  useEffect(() => {
    const ready = new Map<string, DescribeResult>();
    for (const [id, info] of describes) if (info.describe) ready.set(id, info.describe);
    applySchemas(
      ready,
      tabMap.split(',').map((entry) => {
        const [id, connectionId, names] = entry.split(':') as [string, string, string];
        return { id, connectionId, namespaces: names ? names.split('|') : [] };
      }),
    );
  }, [describes, tabMap]);

  const schemaInfo = describes.get(active.connectionId);
  const running = resultState[active.id]?.status === 'running';
  const runActive = () => void run(active.id);
  const activeConnection = connState.connections.find((c) => c.id === active.connectionId);

  // Escape cancels the active tab's running query, unless something else (a widget, a dialog) took it.
  const cancelRef = useRef<(() => void) | null>(null);
  cancelRef.current = running ? () => cancel(active.id) : null;
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || !cancelRef.current) return;
      if (workbench.getSnapshot().view !== 'query') return;
      if ((e.target as HTMLElement | null)?.closest('dialog')) return;
      e.preventDefault();
      cancelRef.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [workbench]);

  // Ctrl/Cmd+Enter runs from anywhere in the window (the editor binds it itself), not from a dialog.
  const runRef = useRef(runActive);
  runRef.current = runActive;
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key !== 'Enter' || e.defaultPrevented) return;
      // Only while the Query view shows: elsewhere the keys belong to that view.
      if (workbench.getSnapshot().view !== 'query') return;
      const target = e.target as HTMLElement | null;
      if (target?.closest('.monaco-editor, dialog')) return;
      e.preventDefault();
      runRef.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [workbench]);

  const insertTemplate = (text: string) => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model) return;
    // An edit, not setValue: Ctrl+Z brings the previous document back.
    editor.executeEdits('template', [{ range: model.getFullModelRange(), text }]);
    editor.pushUndoStop();
    editor.focus();
  };

  return (
    <section className="editor-pane" aria-label="Query editor">
      <EditorTabs />
      {/* Two groups: the tools may wrap within theirs when the pane is narrow; Run never leaves the first row. */}
      <div className="toolbar toolbar-split" data-testid="query-toolbar">
        <div className="toolbar-tools">
          <label className="toolbar-field" title="The server this tab's query runs on">
            <select className="conn-select" aria-label="Connection of this tab" value={active.connectionId} onChange={(e) => tabs.setConnection(active.id, e.target.value)}>
              {!connState.connections.some((c) => c.id === active.connectionId) && <option value={active.connectionId}>(missing)</option>}
              {connState.connections.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <TemplateMenu describe={schemaInfo?.describe ?? null} onInsert={insertTemplate} />
          <button type="button" className="btn btn-small" onClick={() => void editorRef.current?.getAction('editor.action.formatDocument')?.run()} title="Format document (Shift+Alt+F)">
            Format
          </button>
          {props.toolbarExtra}
        </div>
        <div className="toolbar-run">
          {activeConnection && <DeploymentBadge deployment={activeConnection.deployment} readOnly={activeConnection.readOnly} testId="run-target" />}
          {running && (
            <button type="button" className="btn" onClick={() => cancel(active.id)} title="Cancel the running query (Escape)">
              Cancel <kbd>Esc</kbd>
            </button>
          )}
          <button type="button" className="btn btn-primary btn-run" onClick={runActive} disabled={running} title={`Run (${isMac ? '⌘' : 'Ctrl'}+Enter)`}>
            {running ? 'Running…' : 'Run'} <kbd className="compact-hidden">{isMac ? '⌘↵' : 'Ctrl+↵'}</kbd>
          </button>
        </div>
      </div>
      <QueryEditor tabId={active.id} editorRef={editorRef} onRun={runActive} describeOf={(connectionId) => describes.get(connectionId)?.describe ?? null} />
      <footer className="statusbar">
        <span title={schemaInfo?.reason ?? 'Completion and validation from system.Schema describe'} data-testid="schema-state">
          {schemaInfo?.describe ? `schema: ${schemaInfo.describe.workspace}${lazySchemaNote(schemaInfo.describe)}` : schemaInfo?.reason === 'Loading the schema…' ? 'loading schema…' : 'plain JSON'}
        </span>
        {!schemaInfo?.describe && schemaInfo?.reason && schemaInfo.reason !== 'Loading the schema…' && <span className="muted">({schemaInfo.reason})</span>}
        {schemaInfo?.describe && schemaInfo.misfits.length > 0 && (
          // The parts of the describe left out, so missing completions have a reason.
          <span className="text-warn schema-misfits" data-testid="schema-misfits" title={schemaInfo.misfits.map((m) => m.sentence).join('\n')}>
            describe: {schemaInfo.misfits.length} {schemaInfo.misfits.length === 1 ? 'part' : 'parts'} left out · {schemaInfo.misfits[0]!.sentence}
          </span>
        )}
        <span className="toolbar-spacer" />
        <span className="muted statusbar-hint" title="Ctrl/Cmd+S saves into a collection · Ctrl/Cmd+Space completes · Shift+Alt+F formats">
          Ctrl/Cmd+S saves · Ctrl/Cmd+Space completes · Shift+Alt+F formats
        </span>
        {/* A setting of the tab's requests, kept in its status bar (as an editor keeps a file's encoding) so the toolbar fits a narrow pane. */}
        <label className="statusbar-field" title="Ask the server for diagnostics (query_info_level): 1 counts queries, 2 adds each SQL statement">
          <select aria-label="query_info_level" value={active.queryInfoLevel} onChange={(e) => tabs.setQueryInfoLevel(active.id, Number(e.target.value) as QueryInfoLevel)}>
            <option value={0}>SQL: off</option>
            <option value={1}>SQL: counts</option>
            <option value={2}>SQL: statements</option>
          </select>
        </label>
      </footer>
    </section>
  );
}
