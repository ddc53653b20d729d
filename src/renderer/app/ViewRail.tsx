/**
 * The narrow bar on the far left that switches the workbench between its views, like an editor's
 * activity bar: Query, Upload, Streams, History, Saved, Diff, Docs (Alt+1 … Alt+7). Streams shows a
 * dot while any connection's stream is open.
 */
import { useEffect, type JSX, type KeyboardEvent } from 'react';
import { useServices, useStore } from '../state/services.ts';
import { WORKBENCH_VIEWS, type WorkbenchView } from '../state/workbench-store.ts';

export const VIEW_LABELS: Record<WorkbenchView, string> = { query: 'Query', upload: 'Upload', streams: 'Streams', history: 'History', saved: 'Saved', diff: 'Diff', docs: 'Docs' };

const ICONS: Record<WorkbenchView, JSX.Element> = {
  query: <path d="M6 3C4.5 3 4 3.8 4 5v1.6C4 7.5 3.5 8 2.5 8 3.5 8 4 8.5 4 9.4V11c0 1.2.5 2 2 2M10 3c1.5 0 2 .8 2 2v1.6c0 .9.5 1.4 1.5 1.4-1 0-1.5.5-1.5 1.4V11c0 1.2-.5 2-2 2" />,
  upload: <path d="M8 10.5V2.5M4.8 5.6 8 2.5l3.2 3.1M2.5 9.5v3.5h11V9.5" />,
  streams: <path d="M1.5 8.5h2.8l1.6-4.5 2.6 8.5 1.9-6 1.1 2h3" />,
  history: (
    <>
      <circle cx="8" cy="8" r="5.5" />
      <path d="M8 4.8V8l2.2 1.6" />
    </>
  ),
  saved: <path d="M4 2.5h8v11l-4-3-4 3z" />,
  diff: <path d="M5 2.5v11M11 2.5v11M2.5 5.5h5M8.5 10.5h5M11 8v5" />,
  docs: <path d="M2.5 3.5c2-.8 3.8-.8 5.5.5v9c-1.7-1.3-3.5-1.3-5.5-.5zM13.5 3.5c-2-.8-3.8-.8-5.5.5v9c1.7-1.3 3.5-1.3 5.5-.5z" />,
};

export function ViewRail(props: { live: boolean }): JSX.Element {
  const { workbench } = useServices();
  const { view } = useStore(workbench);

  useEffect(() => {
    const onKeyDown = (e: globalThis.KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const index = Number(e.key) - 1;
      const next = WORKBENCH_VIEWS[index];
      if (!next) return;
      e.preventDefault();
      workbench.show(next);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [workbench]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const at = WORKBENCH_VIEWS.indexOf(view);
    const next = WORKBENCH_VIEWS[(at + (e.key === 'ArrowDown' ? 1 : WORKBENCH_VIEWS.length - 1)) % WORKBENCH_VIEWS.length]!;
    workbench.show(next);
    document.getElementById(`view-tab-${next}`)?.focus();
  };

  return (
    <nav className="rail" aria-label="Views">
      <div role="tablist" aria-label="Views" aria-orientation="vertical" onKeyDown={onKeyDown}>
        {WORKBENCH_VIEWS.map((v, i) => (
          <button
            key={v}
            id={`view-tab-${v}`}
            type="button"
            role="tab"
            aria-selected={v === view}
            aria-controls={`view-${v}`}
            tabIndex={v === view ? 0 : -1}
            className={`rail-tab${v === view ? ' is-active' : ''}`}
            title={`${VIEW_LABELS[v]} (Alt+${i + 1})`}
            aria-describedby={v === 'streams' && props.live ? 'rail-live-note' : undefined}
            onClick={() => workbench.show(v)}
          >
            <svg viewBox="0 0 16 16" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinecap="round" strokeLinejoin="round" aria-hidden>
              {ICONS[v]}
            </svg>
            <span className="rail-label">{VIEW_LABELS[v]}</span>
            {/* The dot is the state, not part of the name: the tab stays "Streams", described while live. */}
            {v === 'streams' && props.live && <span className="rail-live" aria-hidden="true" />}
          </button>
        ))}
      </div>
      <span id="rail-live-note" hidden>
        a stream is open
      </span>
    </nav>
  );
}
