/**
 * The live stream inspector (issue 6): connection bar, subscription builder and list, the
 * events-per-second chart, the searchable virtualized log with pause, autoscroll, clear and NDJSON
 * export, and the selected event's record as a JSON tree. All state lives in the StreamSession the
 * app hands in, so switching tabs keeps the log and the socket.
 */
import { VisibleControls } from '../../components/visible-controls.tsx';
import type { ReactNode } from 'react';
import type { DescribeResult } from '../../../shared/protocol.ts';
import { formatBytes } from '../../components/format.ts';
import { EventLogTable } from './EventLogTable.tsx';
import { JsonTree } from './JsonTree.tsx';
import { exportFileName, toNdjson } from './ndjson.ts';
import { RateChart } from './RateChart.tsx';
import type { StreamSession } from './stream-session.ts';
import { silenceNote } from './stream-waiting.ts';
import styles from './stream-inspector.module.css';
import { SubscriptionBuilder, SubscriptionList, type FilterEditorProps } from './SubscriptionBuilder.tsx';
import { useLogView, useNow, useSessionState } from './use-stream.ts';

export interface StreamInspectorPanelProps {
  session: StreamSession;
  describe: DescribeResult | null;
  /** The connection's name, for the bar. */
  connectionLabel?: string;
  /** Saves the export (Electron: the save dialog); default: a browser download. */
  onExport?: (ndjson: string, suggestedName: string) => void;
  /** The app's Monaco editor for the filter, with the query editor's completion. */
  renderFilterEditor?: (props: FilterEditorProps) => ReactNode;
}

function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function StreamInspectorPanel({ session, describe, connectionLabel, onExport, renderFilterEditor }: StreamInspectorPanelProps) {
  const state = useSessionState(session);
  const view = useLogView(session.log);
  const now = useNow(1000);
  const series = session.rates.series(now);
  const selected = state.selected !== null ? session.log.get(state.selected) : undefined;
  // Read at each render (at most once a frame while events flow): the session's snapshot only
  // changes when a subscription does, not on every event, so its counts and cursors would lag.
  const subscriptions = session.client.subscriptions();
  const open = state.connection === 'open';
  const live = open || state.connection === 'connecting' || state.connection === 'waiting';
  const silent = silenceNote(session.client.silence(), now);

  return (
    <section className={styles.panel} aria-label="Stream inspector">
      <div className={styles.bar}>
        <span className={`${styles.dot} ${open ? styles.dotOpen : state.connection === 'waiting' ? styles.dotWaiting : ''}`} aria-hidden />
        <span role="status">
          {connectionLabel ? `${connectionLabel}: ` : ''}
          {state.connection}
          {state.detail ? ` (${state.detail})` : ''}
          {silent ? ` · ${silent}` : ''}
        </span>
        {live ? (
          <button type="button" className={styles.button} onClick={() => session.disconnect()}>
            Disconnect
          </button>
        ) : (
          <button type="button" className={styles.button} onClick={() => session.connect()}>
            Connect
          </button>
        )}
        {state.connection === 'waiting' && (
          <button type="button" className={styles.button} onClick={() => session.client.reconnectNow()}>
            Reconnect now
          </button>
        )}
      </div>

      <div className={styles.side}>
        <SubscriptionBuilder describe={describe} onSubscribe={(spec, since) => session.addSubscription(spec, since)} renderFilterEditor={renderFilterEditor} />
        <SubscriptionList subscriptions={subscriptions} now={now} onUnsubscribe={(id) => session.removeSubscription(id)} onRetry={(id) => session.client.retry(id)} />
      </div>

      <div className={styles.main}>
        <RateChart series={series} />
        <div className={styles.row} role="toolbar" aria-label="Log">
          <input className={styles.input} style={{ flex: 1 }} type="search" aria-label="Search the log" placeholder="search · event:created ns:Ticket id:42 seq:>100 -event:deleted" value={state.query} onChange={(e) => session.setQuery(e.target.value)} />
          <button type="button" className={styles.button} onClick={() => (view.paused ? session.log.resume() : session.log.pause())}>
            {view.paused ? `Resume (${view.pending} new)` : 'Pause'}
          </button>
          <label>
            <input type="checkbox" checked={state.autoscroll} onChange={(e) => session.setAutoscroll(e.target.checked)} /> autoscroll
          </label>
          <button type="button" className={styles.button} onClick={() => session.clear()}>
            Clear
          </button>
          <button
            type="button"
            className={styles.button}
            disabled={view.size === 0}
            onClick={() => {
              const text = toNdjson(view.filtered ? session.log.visibleEntries() : session.log.entries());
              const name = exportFileName(new Date());
              if (onExport) onExport(text, name);
              else download(text, name);
            }}
          >
            Export NDJSON
          </button>
          <span className={styles.hint}>
            {view.count} shown · {view.size} held ({formatBytes(view.bytes)}){view.dropped > 0 ? ` · ${view.dropped} oldest dropped (cap ${view.capacity} or ${formatBytes(view.maxBytes)})` : ''}
            {state.skipped > 0 ? ` · ${state.skipped} skipped${state.skipping ? ' (skipping: the page cannot keep up)' : ''}` : ''}
          </span>
        </div>
        <div className={styles.split}>
          <EventLogTable view={view} selected={state.selected} autoscroll={state.autoscroll && !view.paused} onSelect={(index) => session.select(index)} />
          <div className={styles.box} aria-label="Event detail">
            {!selected ? (
              <p className={styles.hint}>Select an event to see its record.</p>
            ) : selected.kind === 'marker' ? (
              <p className={styles[`level-${selected.level}`]}><VisibleControls text={selected.text} /></p>
            ) : (
              <>
                <span className={styles.title}>
                  {selected.event} {selected.namespace} #{selected.recordId ?? ''}
                </span>
                {selected.summarized && <p className={styles['level-warn']}>{selected.summarized}</p>}
                <span className={styles.hint}>
                  seq {selected.seq} · {selected.at} · {selected.subscription}
                  {selected.replayed ? ' · replayed' : ''}
                </span>
                <JsonTree value={selected.record} />
              </>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
