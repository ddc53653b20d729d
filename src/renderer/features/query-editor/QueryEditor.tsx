/**
 * The Monaco editor of the current tab. One editor instance; each tab has its own model (by URI)
 * and view state. It pins the last response's errors as markers on the keys they name, reveals
 * one when the viewer asks, and runs the query on Ctrl/Cmd+Enter.
 */
import { useEffect, useLayoutEffect, useReducer, useRef, type JSX, type MutableRefObject } from 'react';
import { isErrorCode } from '../../../shared/error-codes.ts';
import type { DescribeResult } from '../../../shared/protocol.ts';
import { docsLink } from '../../components/doc-anchors.ts';
import { errorMarkerSpecs } from '../../monaco/error-markers.ts';
import { monaco } from '../../monaco/monaco.ts';
import { installPlaceholderSupport, refreshPlaceholders, type PlaceholderContext } from '../../monaco/placeholders.ts';
import { installProtocolHovers } from '../../monaco/protocol-hovers.ts';
import { errorAnchor } from '../../monaco/protocol-help.ts';
import { disposeTabModel, saveViewState, tabModel, viewStateOf } from '../../monaco/tab-models.ts';
import { allErrors } from '../../response/result-view.ts';
import type { RunState } from '../../state/results-store.ts';
import { useServices, useStore } from '../../state/services.ts';
import { markEditorReady } from '../../state/editor-ready.ts';

const MARKER_OWNER = 'jql-response';

export function QueryEditor(props: {
  tabId: string;
  editorRef: MutableRefObject<monaco.editor.IStandaloneCodeEditor | null>;
  onRun: () => void;
  /** The describe of a connection, for the hovers' field and namespace details. */
  describeOf: (connectionId: string) => DescribeResult | null;
}): JSX.Element {
  const { tabs, results, editorBus, connections, variables, workbench } = useServices();
  const tabState = useStore(tabs);
  const resultState = useStore(results);
  const connState = useStore(connections);
  // Bumped whenever any connection's variables change (the Saved view edits them).
  const [variablesVersion, bumpVariables] = useReducer((n: number) => n + 1, 0);
  useEffect(() => variables.subscribe(bumpVariables), [variables]);
  const hostRef = useRef<HTMLDivElement>(null);
  const runRef = useRef(props.onRun);
  runRef.current = props.onRun;
  const markerRanges = useRef(new Map<string, monaco.IRange[]>());
  const markedRuns = useRef(new Map<string, RunState>());
  const currentTab = useRef<string | null>(null);

  // Create the editor once, and show its tab's model (below), as the view is committed: the frame that
  // first shows the Query view shows the editor with its text. As passive effects they ran a task
  // later, after a frame with an empty editor host (one frame and one layout more before the editor
  // was usable, issue 31).
  useLayoutEffect(() => {
    const editor = monaco.editor.create(hostRef.current!, {
      model: null,
      theme: 'jql-dark',
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      lineHeight: 19,
      tabSize: 2,
      scrollBeyondLastLine: false,
      fixedOverflowWidgets: true,
      renderLineHighlight: 'line',
      quickSuggestions: { other: true, strings: true, comments: false },
      suggestOnTriggerCharacters: true,
      wordBasedSuggestions: 'off',
      formatOnPaste: true,
      padding: { top: 6 },
      ariaLabel: 'JQL query editor',
    });
    editor.addAction({
      id: 'jql.run',
      label: 'Run query',
      keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
      run: () => runRef.current(),
    });
    props.editorRef.current = editor;
    markEditorReady();
    return () => {
      props.editorRef.current = null;
      editor.dispose();
    };
  }, [props.editorRef]);

  // Show the current tab's model, keeping each tab's cursor and scroll.
  useLayoutEffect(() => {
    const editor = props.editorRef.current;
    if (!editor) return;
    const tab = tabs.get(props.tabId);
    if (!tab) return;
    if (currentTab.current && currentTab.current !== props.tabId) saveViewState(currentTab.current, editor.saveViewState());
    const model = tabModel(tab.id, tab.text);
    if (editor.getModel() !== model) {
      editor.setModel(model);
      const state = viewStateOf(tab.id);
      if (state) editor.restoreViewState(state);
    }
    currentTab.current = props.tabId;
    editor.focus();
    const sub = model.onDidChangeContent(() => tabs.setText(tab.id, model.getValue()));
    return () => sub.dispose();
  }, [props.tabId, props.editorRef, tabs]);

  // {{variables}}: their value for the tab's connection on hover, highlighted, an undefined one an error.
  const contextRef = useRef<(tabId: string) => PlaceholderContext | null>(() => null);
  contextRef.current = (tabId) => {
    const tab = tabs.get(tabId);
    const connection = tab ? connections.get(tab.connectionId) : undefined;
    return tab && connection ? { connectionName: connection.name, values: variables.variables(connection.id) } : null;
  };
  useEffect(() => {
    installPlaceholderSupport((uri) => {
      const id = /^inmemory:\/\/jql\/tab\/(.+)\.json$/.exec(uri.toString())?.[1];
      return id ? contextRef.current(id) : null;
    });
  }, []);

  // Hovers explain the protocol's words and link to the Docs view.
  const describeRef = useRef(props.describeOf);
  describeRef.current = props.describeOf;
  useEffect(() => {
    installProtocolHovers(
      (uri) => {
        const id = /^inmemory:\/\/jql\/tab\/(.+)\.json$/.exec(uri.toString())?.[1];
        const tab = id ? tabs.get(id) : undefined;
        return tab ? describeRef.current(tab.connectionId) : null;
      },
      (place) => workbench.openDocs(place),
    );
  }, [tabs, workbench]);
  const activeConnection = tabState.tabs.find((t) => t.id === props.tabId)?.connectionId;
  useEffect(() => {
    const model = props.editorRef.current?.getModel();
    if (!model) return;
    const refresh = () => refreshPlaceholders(model, contextRef.current(props.tabId));
    refresh();
    // A 5 MB document is scanned once typing pauses, not on every key.
    let timer: ReturnType<typeof setTimeout> | null = null;
    const sub = model.onDidChangeContent(() => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(refresh, 150);
    });
    return () => {
      sub.dispose();
      if (timer) clearTimeout(timer);
    };
  }, [props.tabId, props.editorRef, activeConnection, connState, variablesVersion]);

  // Models of closed tabs go away.
  const tabIds = tabState.tabs.map((t) => t.id).join(',');
  useEffect(() => {
    const open = new Set(tabIds.split(','));
    for (const model of monaco.editor.getModels()) {
      const id = /^inmemory:\/\/jql\/tab\/(.+)\.json$/.exec(model.uri.toString())?.[1];
      if (id && !open.has(id)) {
        disposeTabModel(id);
        markerRanges.current.delete(id);
        markedRuns.current.delete(id);
      }
    }
  }, [tabIds]);

  // Markers for each tab's latest result: set when it arrives, cleared when a new run starts.
  useEffect(() => {
    for (const [tabId, run] of Object.entries(resultState)) {
      if (markedRuns.current.get(tabId) === run) continue;
      markedRuns.current.set(tabId, run);
      const model = monaco.editor.getModel(monaco.Uri.parse(`inmemory://jql/tab/${tabId}.json`));
      if (!model) continue;
      if (run.status !== 'done') {
        monaco.editor.setModelMarkers(model, MARKER_OWNER, []);
        markerRanges.current.delete(tabId);
        continue;
      }
      const specs = errorMarkerSpecs(model.getValue(), allErrors(run.view));
      const ranges = specs.map((s) => {
        const start = model.getPositionAt(s.start);
        const end = model.getPositionAt(s.end);
        return { startLineNumber: start.lineNumber, startColumn: start.column, endLineNumber: end.lineNumber, endColumn: end.column };
      });
      markerRanges.current.set(tabId, ranges);
      monaco.editor.setModelMarkers(
        model,
        MARKER_OWNER,
        specs.map((s, i) => ({
          ...ranges[i]!,
          severity: monaco.MarkerSeverity.Error,
          message: s.message,
          // The code is a link to its entry in the Docs view (opened by the protocol hovers' link opener).
          code: isErrorCode(s.code) ? { value: s.code, target: monaco.Uri.parse(docsLink({ doc: 'protocol', anchor: errorAnchor(s.code) })) } : s.code,
          source: 'server',
        })),
      );
    }
  }, [resultState]);

  // "Show in editor" from the errors list.
  useEffect(
    () =>
      editorBus.onRevealError(({ tabId, errorIndex }) => {
        const editor = props.editorRef.current;
        const range = markerRanges.current.get(tabId)?.[errorIndex];
        if (!editor || !range || tabId !== currentTab.current) return;
        editor.setSelection(range);
        editor.revealRangeInCenterIfOutsideViewport(range);
        editor.focus();
        editor.trigger('jql', 'editor.action.showHover', {});
      }),
    [editorBus, props.editorRef],
  );

  return <div ref={hostRef} className="monaco-host" data-testid="query-editor" />;
}
