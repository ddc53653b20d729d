/**
 * The right column: the active tab's last response. One view model (ResultView) whatever the
 * envelope shape; a multi-query gets one sub-tab per key; the payload shows as a table or a JSON
 * tree; errors, SQL and the raw body have their own views. On start there is no response in
 * memory, only the summary of the last run, so a huge body is never re-rendered unasked.
 */
import { useCallback, useState, type JSX, type KeyboardEvent, type ReactNode } from 'react';
import { formatAgo, formatBytes, formatMs } from '../../components/format.ts';
import { ErrorBoundary } from '../../components/ErrorBoundary.tsx';
import { RefusedWrite } from '../../components/RunAnyway.tsx';
import { TabStrip, type TabItem } from '../../components/TabStrip.tsx';
import { useDebounced } from '../../components/use-debounced.ts';
import { TOO_DEEP_SENTENCE } from '../../response/normalize-envelope.ts';
import type { ErrorCode } from '../../../shared/error-codes.ts';
import { errorAnchor } from '../../monaco/protocol-help.ts';
import { allErrors, errorCount } from '../../response/result-view.ts';
import type { RunDone, RunState } from '../../state/results-store.ts';
import { isOwnServer } from '../../state/own-server.ts';
import { useServices, useStore } from '../../state/services.ts';
import { tabTitle, type QueryInfoLevel, type QueryTab } from '../../state/tabs-store.ts';
import { DuplicateKeysNote } from './DuplicateKeysNote.tsx';
import { EmptyResult } from './EmptyResult.tsx';
import { ErrorsList } from './ErrorsList.tsx';
import { ExtrasBar } from './ExtrasBar.tsx';
import { JsonTree } from './JsonTree.tsx';
import { MisfitsNote } from './MisfitsNote.tsx';
import { PayloadTable } from './PayloadTable.tsx';
import { RawBody } from './RawBody.tsx';
import { ResponseHeader } from './ResponseHeader.tsx';
import { CLOSED_SEARCH, ResponseSearch, type SearchState } from './ResponseSearch.tsx';
import { LONG_TEXT_SEARCH_NOTE, MATCH_LIMIT, step } from './response-search.ts';
import { longTextCount } from '../../response/long-text.ts';
import { SqlPanel } from './SqlPanel.tsx';
import type { ExplainRecord } from './record-actions.ts';
import { tableRows } from './table-model.ts';

type View = 'table' | 'json' | 'errors' | 'sql' | 'raw';

/**
 * The active editor tab's last response. `recordExplainer` (given by the app, which can reach the
 * server) says whether the records of an answer can be asked "why can't a user see this?", and how.
 */
export function EnvelopeViewer(props: { recordExplainer?: (run: RunDone) => ExplainRecord | null }): JSX.Element {
  const { tabs, results, editorBus, run: runTab, workbench } = useServices();
  const tabState = useStore(tabs);
  const resultState = useStore(results);
  const tab = tabState.tabs.find((t) => t.id === tabState.activeId) ?? tabState.tabs[0]!;
  return (
    <ResultViewer
      run={resultState[tab.id]}
      viewKey={tab.id}
      title={tabTitle(tab.text)}
      empty={<NoResponse tab={tab} />}
      queryInfoLevel={tab.queryInfoLevel}
      onRevealError={(errorIndex) => editorBus.revealError({ tabId: tab.id, errorIndex })}
      onOpenDocs={(code) => workbench.openDocs({ doc: 'protocol', anchor: errorAnchor(code) })}
      onAskForSql={() => {
        tabs.setQueryInfoLevel(tab.id, 2);
        void runTab(tab.id);
      }}
      onRunAnyway={() => void runTab(tab.id, { allowWrite: true })}
      recordExplainer={props.recordExplainer}
    />
  );
}

export interface ResultViewerProps {
  run: RunState | undefined;
  /** What the response is of (a tab's title, an upload's target): names a saved file. */
  title: string;
  /** Shown before any run. */
  empty: ReactNode;
  /** The picked view (Table, JSON…) is remembered per key across runs. */
  viewKey?: string;
  queryInfoLevel?: QueryInfoLevel;
  onRevealError?: (errorIndex: number) => void;
  /** Opens an error code's entry of the protocol docs. */
  onOpenDocs?: (code: ErrorCode) => void;
  onAskForSql?: () => void;
  /** Copy as curl/fetch; off for requests a snippet cannot reproduce (multipart uploads). */
  snippets?: boolean;
  /** "Run once anyway" for a write refused in read-only mode. */
  onRunAnyway?: () => void;
  /** How to ask why a user cannot see a record of this answer; null or absent: the table offers nothing. */
  recordExplainer?: (run: RunDone) => ExplainRecord | null;
}

/** One response with its views; used for the editor tabs and for uploads. */
export function ResultViewer(props: ResultViewerProps): JSX.Element {
  const { run } = props;
  // The view a person picked stays picked across runs (asking for SQL re-runs).
  const [chosenViews, setChosenViews] = useState<Readonly<Record<string, View>>>({});
  const key = props.viewKey ?? '';
  // The search stays open, with its query, from one run to the next.
  const [search, setSearch] = useState<SearchState>(CLOSED_SEARCH);
  const onKeyDown = (e: KeyboardEvent) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== 'f' || run?.status !== 'done') return;
    e.preventDefault();
    e.stopPropagation();
    setSearch((s) => ({ ...s, open: true, focus: s.focus + 1 }));
  };

  let body: JSX.Element;
  if (!run) body = <>{props.empty}</>;
  else if (run.status === 'running') {
    body = (
      <div className="empty" data-testid="response-running">
        <span className="spinner" /> Running on {run.request.url}…
      </div>
    );
  } else if (run.status === 'failed') {
    body = (
      <div className="empty" role="alert" data-testid="response-failed">
        <p className="text-error pre-line">{run.message}</p>
        {run.request && <p className="muted small">{run.request.url}</p>}
      </div>
    );
  } else if (run.status === 'refused') {
    body = <RefusedWrite sentence={run.sentence} confirmName={run.confirmName} onRunAnyway={props.onRunAnyway} />;
  } else if (run.status === 'cancelled') {
    body = (
      <div className="empty" role="status" data-testid="response-cancelled">
        <p>Cancelled after {formatMs(run.afterMs)}, before the answer was read.</p>
        <p className="muted small">The document is unchanged; run it again when you are ready. (A server may still finish what it had started.)</p>
      </div>
    );
  } else {
    body = (
      <DoneView key={run.runId} {...props} run={run} chosen={chosenViews[key] ?? null} onChoose={(view) => setChosenViews((all) => ({ ...all, [key]: view }))} search={search} onSearch={setSearch} />
    );
  }

  return (
    // Focusable (not in the tab order) so that a click anywhere in it makes Ctrl/Cmd+F its own.
    <section className="viewer-pane" aria-label="Response" tabIndex={-1} onKeyDown={onKeyDown}>
      {body}
    </section>
  );
}

function NoResponse(props: { tab: QueryTab }): JSX.Element {
  const last = props.tab.lastRun;
  return (
    <div className="empty" data-testid="response-empty">
      {last ? (
        <p>
          Last run {formatAgo(last.at)}: {last.status} · {formatMs(last.timeMs)} · {formatBytes(last.size)}.
          <br />
          Run it again to see the response.
        </p>
      ) : (
        <p>Run the query to see its response here.</p>
      )}
      <p className="muted small">Ctrl/Cmd+Enter runs the query in the editor.</p>
    </div>
  );
}

function DoneView(props: ResultViewerProps & { run: RunDone; chosen: View | null; onChoose: (view: View) => void; search: SearchState; onSearch: (change: (s: SearchState) => SearchState) => void }): JSX.Element {
  const { view } = props.run;
  const { search, onSearch } = props;
  const own = isOwnServer(useStore(useServices().connections).connections, props.run.request.connectionId);
  // The shown view counts its matches of the query (settled after typing stops) and shows the current one.
  const [matchCount, setMatchCount] = useState(0);
  const onMatches = useCallback((count: number) => setMatchCount(count), []);
  const query = useDebounced(search.query, 150);
  const searching = search.open && query !== '' ? { query, index: search.index } : null;
  const errors = allErrors(view);
  const errorsInAll = errorCount(view);
  const [sectionIndex, setSectionIndex] = useState(0);
  const section = view.sections[sectionIndex] ?? null;
  const rows = section ? tableRows(section.payload) : null;
  const explainRecord = view.isMulti ? undefined : (props.recordExplainer?.(props.run) ?? undefined);
  const hasPayload = section !== null && section.payload !== null;
  const fallback: View = view.shape === 'not-json' || (view.tooDeep && !hasPayload && errorsInAll === 0) ? 'raw' : !hasPayload && errorsInAll > 0 ? 'errors' : Array.isArray(section?.payload) ? 'table' : 'json';

  const views: Array<TabItem<View>> = [
    { key: 'table', label: 'Table', disabled: !rows },
    { key: 'json', label: 'JSON', disabled: !section },
    // Disabled without errors, like Table without rows: a tab that takes no click is not announced as one that does.
    { key: 'errors', label: 'Errors', badge: errorsInAll || undefined, tone: errorsInAll ? 'error' : 'normal', disabled: errorsInAll === 0 },
    ...(props.onAskForSql ? [{ key: 'sql' as const, label: 'SQL', badge: view.system ? view.system.queries : undefined }] : []),
    { key: 'raw', label: 'Raw' },
  ];
  // A picked view this response cannot show (a table for an error, errors when there are none)
  // gives way to the default.
  const usable = (v: View | null): v is View => v !== null && views.some((i) => i.key === v && !i.disabled);
  const current: View = usable(props.chosen) ? props.chosen : fallback;

  // Each part draws inside its own boundary: one that fails shows the raw answer and a report,
  // the others (and the rest of the console) keep working.
  const part = (what: string, node: JSX.Element) => (
    <ErrorBoundary what={what} raw={props.run.raw} resetKey={`${props.run.runId}:${sectionIndex}:${current}`}>
      {node}
    </ErrorBoundary>
  );
  return (
    <>
      {part('The response header', <ResponseHeader run={props.run} tabTitle={props.title} snippets={props.snippets ?? true} own={own} />)}
      {view.parseError && <p className="banner banner-error">{view.parseError}</p>}
      <DuplicateKeysNote found={view.duplicateKeys} />
      {view.tooDeep && (
        <p className="banner banner-error" data-testid="too-deep">
          {TOO_DEEP_SENTENCE}
        </p>
      )}
      {part('The list of misfits', <MisfitsNote misfits={view.misfits} />)}
      {view.isMulti && (
        <TabStrip
          label="Subqueries"
          className="sections"
          active={String(sectionIndex)}
          onSelect={(k) => setSectionIndex(Number(k))}
          items={view.sections.map((s, i) => ({
            key: String(i),
            label: s.name ?? `#${i + 1}`,
            tone: s.errors.length ? 'error' : 'normal',
            badge: Array.isArray(s.payload) ? s.payload.length : undefined,
          }))}
        />
      )}
      <TabStrip label="Response views" active={current} onSelect={props.onChoose} items={views} />
      {search.open && (
        <ResponseSearch
          state={search}
          count={current === 'table' || current === 'json' || current === 'raw' ? matchCount : null}
          limited={matchCount >= MATCH_LIMIT}
          {...(longTextCount(view) > 0 && (current === 'table' || current === 'json') ? { note: LONG_TEXT_SEARCH_NOTE } : {})}
          onQuery={(text) => onSearch((s) => ({ ...s, query: text, index: 0 }))}
          onStep={(direction) => onSearch((s) => ({ ...s, index: step(Math.min(s.index, matchCount - 1), matchCount, direction) }))}
          onClose={() => onSearch((s) => ({ ...s, open: false }))}
        />
      )}
      {section && part('The extras line', <ExtrasBar section={section} own={own} />)}
      <div className="view-body">
        {current === 'table' && rows && rows.length === 0 && Array.isArray(section?.payload) &&
          part('The Table view', <EmptyResult body={props.run.request.body} section={section?.name ?? null} filtered={section?.extras?.filtered} />)}
        {current === 'table' && rows && rows.length > 0 && part('The Table view', <PayloadTable key={sectionIndex} rows={rows} explainRecord={explainRecord} search={searching} onMatches={onMatches} />)}
        {current === 'json' && section && part('The JSON view', <JsonTree key={sectionIndex} value={section.payload} search={searching} onMatches={onMatches} />)}
        {current === 'errors' && part('The Errors view', <ErrorsList errors={errors} total={errorsInAll} onReveal={(errorIndex) => props.onRevealError?.(errorIndex)} onOpenDocs={props.onOpenDocs} />)}
        {current === 'sql' && props.onAskForSql && part('The SQL view', <SqlPanel system={view.system} unread={view.sqlUnread} level={props.queryInfoLevel ?? 0} onAskForSql={props.onAskForSql} />)}
        {current === 'raw' && part('The Raw view', <RawBody raw={props.run.raw} search={searching} onMatches={onMatches} />)}
      </div>
    </>
  );
}
