/**
 * The run history (issue 6): every run with its connection, status, time, size and a summary of the
 * answer; searchable, filterable by connection and outcome, re-runnable and deletable. Reads the
 * HistoryStore through TanStack Query; the app invalidates `historyKeys.all` after recording a run.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useRef, useState } from 'react';
import styles from './history.module.css';
import { isOk, type HistoryRun, type HistoryStore } from './history-types.ts';
import { historyKeys } from './record-run.ts';

export interface HistoryPanelProps {
  store: HistoryStore;
  /** For the connection filter; runs of deleted connections still show their recorded name. */
  connections: Array<{ id: string; name: string }>;
  /** Run the document again on its connection. */
  onRerun: (run: HistoryRun) => void;
  /** Open the document in an editor tab without running it. */
  onOpen?: (run: HistoryRun) => void;
  /** How many runs to show at most (newest first). */
  pageSize?: number;
}

const ROW_HEIGHT = 56;

function when(at: number): string {
  const d = new Date(at);
  const today = new Date();
  return d.toDateString() === today.toDateString() ? d.toLocaleTimeString() : d.toLocaleString();
}

function bytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function HistoryPanel({ store, connections, onRerun, onOpen, pageSize = 500 }: HistoryPanelProps) {
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [connectionId, setConnectionId] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<'ok' | 'error' | null>(null);
  const deferredText = useDeferredValue(text);
  const params = { text: deferredText, connectionId, outcome };
  const runs = useQuery({
    queryKey: historyKeys.list(params),
    queryFn: () => store.list({ text: deferredText, limit: pageSize, ...(connectionId ? { connectionId } : {}), ...(outcome ? { outcome } : {}) }),
    placeholderData: keepPreviousData,
  });
  const invalidate = () => client.invalidateQueries({ queryKey: historyKeys.all });
  const remove = useMutation({ mutationFn: (id: string) => store.delete(id), onSettled: invalidate });
  const clear = useMutation({ mutationFn: () => store.clear(), onSettled: invalidate });

  const scroller = useRef<HTMLDivElement>(null);
  const list = runs.data ?? [];
  // initialRect: the first render (and a server render) draws a screenful before the list is measured.
  const virtualizer = useVirtualizer({ count: list.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 8, initialRect: { width: 800, height: 600 } });

  return (
    <section className={styles.panel} aria-label="History">
      <div className={styles.row}>
        <input className={styles.input} style={{ flex: 1 }} type="search" aria-label="Search history" placeholder="Search documents, summaries, connections" value={text} onChange={(e) => setText(e.target.value)} />
        <select className={styles.select} aria-label="Connection" value={connectionId ?? ''} onChange={(e) => setConnectionId(e.target.value || null)}>
          <option value="">All connections</option>
          {connections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <select className={styles.select} aria-label="Outcome" value={outcome ?? ''} onChange={(e) => setOutcome((e.target.value || null) as 'ok' | 'error' | null)}>
          <option value="">Any outcome</option>
          <option value="ok">Succeeded</option>
          <option value="error">Failed</option>
        </select>
        <button
          type="button"
          className={styles.button}
          disabled={list.length === 0 || clear.isPending}
          onClick={() => {
            if (globalThis.confirm?.('Delete the whole history?') ?? true) clear.mutate();
          }}
        >
          Clear all
        </button>
      </div>
      <span className={styles.hint} role="status">
        {runs.isPending ? 'Loading…' : runs.isError ? '' : `${list.length}${list.length >= pageSize ? '+' : ''} runs · the newest ${store.retention} are kept`}
      </span>
      {runs.isError && <p className={styles.error}>Could not read the history: {(runs.error as Error).message}</p>}
      <div ref={scroller} className={styles.list} role="list">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const run = list[item.index]!;
            return (
              <div key={run.id} className={styles.item} style={{ transform: `translateY(${item.start}px)` }} role="listitem" data-run={run.id}>
                <div className={styles.meta}>
                  <span className={isOk(run.status) ? styles.ok : styles.bad}>{run.status === 0 ? 'no answer' : run.status}</span>
                  <span>{run.summary}</span>
                  <span className={styles.hint}>
                    {run.connectionName} · {when(run.at)} · {run.timeMs} ms · {bytes(run.size)}
                  </span>
                </div>
                <div className={styles.doc} title={run.document}>
                  {run.document.slice(0, 300).replace(/\s+/g, ' ')}
                </div>
                <div className={styles.actions}>
                  <button type="button" className={styles.button} onClick={() => onRerun(run)}>
                    Re-run
                  </button>
                  {onOpen && (
                    <button type="button" className={styles.button} onClick={() => onOpen(run)}>
                      Open
                    </button>
                  )}
                  <button type="button" className={styles.button} aria-label="Delete this run" disabled={remove.isPending} onClick={() => remove.mutate(run.id)}>
                    Delete
                  </button>
                </div>
              </div>
            );
          })}
        </div>
        {!runs.isPending && list.length === 0 && <p className={styles.hint} style={{ padding: 8 }}>{text || connectionId || outcome ? 'No run matches.' : 'No runs yet: every query you run is recorded here.'}</p>}
      </div>
    </section>
  );
}
