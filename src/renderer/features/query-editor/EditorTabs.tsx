/**
 * The editor's tab bar: one tab per query document, each with its own connection. The tablist holds
 * only tabs (a screen reader counts "tab 2 of 3"); each tab's close button and the New tab button sit
 * beside it, outside the tablist, placed after their tab by CSS `order` (the list itself is
 * `display: contents`). One tab is a tab stop; arrow keys, Home and End move between tabs and show
 * the tab reached, Delete closes it.
 */
import type { JSX, KeyboardEvent } from 'react';
import { DeploymentBadge } from '../../components/DeploymentBadge.tsx';
import { useServices, useStore } from '../../state/services.ts';
import { tabTitle } from '../../state/tabs-store.ts';

const tabElementId = (id: string) => `editor-tab-${id}`;

export function EditorTabs(): JSX.Element {
  const { tabs, results, connections } = useServices();
  const state = useStore(tabs);
  const resultState = useStore(results);
  const connState = useStore(connections);
  const nameOf = (id: string) => connState.connections.find((c) => c.id === id)?.name ?? 'no connection';
  const connectionOf = (id: string) => connState.connections.find((c) => c.id === id);
  const close = (id: string) => {
    tabs.close(id);
    results.clear(id);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const at = state.tabs.findIndex((t) => t.id === state.activeId);
    if (at < 0) return;
    if (e.key === 'Delete') {
      e.preventDefault();
      close(state.activeId);
      // The tab that became active (a fresh one if that was the last) keeps the focus in the list.
      requestAnimationFrame(() => document.getElementById(tabElementId(tabs.getSnapshot().activeId))?.focus());
      return;
    }
    const n = state.tabs.length;
    const to = e.key === 'ArrowRight' ? (at + 1) % n : e.key === 'ArrowLeft' ? (at + n - 1) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    const next = state.tabs[to]!;
    tabs.activate(next.id);
    document.getElementById(tabElementId(next.id))?.focus();
  };

  return (
    <div className="editor-tabs">
      <div className="editor-tab-list" role="tablist" aria-label="Query tabs" onKeyDown={onKeyDown}>
        {state.tabs.map((tab, i) => {
          const run = resultState[tab.id];
          const failed = run?.status === 'failed' || (run?.status === 'done' && run.view.failed);
          const connection = connectionOf(tab.connectionId);
          const unsaved = state.unsaved[tab.id];
          const active = tab.id === state.activeId;
          return (
            <div
              key={tab.id}
              id={tabElementId(tab.id)}
              role="tab"
              aria-selected={active}
              tabIndex={active ? 0 : -1}
              className={`editor-tab${active ? ' is-active' : ''}`}
              style={{ order: 2 * i }}
              data-testid="editor-tab"
              data-deployment={connection?.deployment}
              data-saved={unsaved ?? 'saved'}
              title={`${tabTitle(tab.text)} on ${nameOf(tab.connectionId)}${connection ? ` (${connection.deployment}${connection.readOnly ? ', read-only' : ''})` : ''}`}
              onClick={() => tabs.activate(tab.id)}
              onAuxClick={(e) => e.button === 1 && close(tab.id)}
            >
              {run?.status === 'running' && <span className="spinner" aria-label="running" />}
              {failed && <span className="dot dot-unreachable" aria-label="last run failed" />}
              <span className="editor-tab-title">{tabTitle(tab.text)}</span>
              <span className="editor-tab-conn">{nameOf(tab.connectionId)}</span>
              {connection && <DeploymentBadge deployment={connection.deployment} />}
              {run?.status === 'cancelled' && <span className="editor-tab-cancelled">Cancelled</span>}
              {unsaved === 'failed' && (
                <span className="editor-tab-unsaved is-failed" title="This tab's latest change could not be stored: copy its document somewhere safe">
                  not saved
                </span>
              )}
              {unsaved === 'pending' && (
                <span className="editor-tab-unsaved" aria-label="saving" title="Saving this tab">
                  ●
                </span>
              )}
            </div>
          );
        })}
      </div>
      {state.tabs.map((tab, i) => {
        const active = tab.id === state.activeId;
        return (
          <button
            key={tab.id}
            type="button"
            className={`editor-tab-close${active ? ' is-active' : ''}`}
            style={{ order: 2 * i + 1 }}
            aria-label={`Close tab ${tabTitle(tab.text)}`}
            title="Close tab (Delete on the tab)"
            // The active tab's close button follows it in the tab order; the others are reached by mouse or Delete.
            tabIndex={active ? 0 : -1}
            onClick={() => close(tab.id)}
          >
            ×
          </button>
        );
      })}
      <button type="button" className="editor-tab-new" style={{ order: 2 * state.tabs.length }} aria-label="New tab" title="New tab" onClick={() => tabs.open()}>
        +
      </button>
    </div>
  );
}
