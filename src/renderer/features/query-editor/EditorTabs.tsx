/** The editor's tab bar: one tab per query document, each with its own connection. */
import type { JSX } from 'react';
import { DeploymentBadge } from '../../components/DeploymentBadge.tsx';
import { useServices, useStore } from '../../state/services.ts';
import { tabTitle } from '../../state/tabs-store.ts';

export function EditorTabs(): JSX.Element {
  const { tabs, results, connections } = useServices();
  const state = useStore(tabs);
  const resultState = useStore(results);
  const connState = useStore(connections);
  const nameOf = (id: string) => connState.connections.find((c) => c.id === id)?.name ?? 'no connection';
  const connectionOf = (id: string) => connState.connections.find((c) => c.id === id);

  return (
    <div className="editor-tabs" role="tablist" aria-label="Query tabs">
      {state.tabs.map((tab) => {
        const run = resultState[tab.id];
        const failed = run?.status === 'failed' || (run?.status === 'done' && run.view.failed);
        const connection = connectionOf(tab.connectionId);
        const unsaved = state.unsaved[tab.id];
        return (
          <div
            key={tab.id}
            role="tab"
            aria-selected={tab.id === state.activeId}
            className={`editor-tab${tab.id === state.activeId ? ' is-active' : ''}`}
            data-testid="editor-tab"
            data-deployment={connection?.deployment}
            data-saved={unsaved ?? 'saved'}
            title={`${tabTitle(tab.text)} on ${nameOf(tab.connectionId)}${connection ? ` (${connection.deployment}${connection.readOnly ? ', read-only' : ''})` : ''}`}
            onClick={() => tabs.activate(tab.id)}
            onAuxClick={(e) => e.button === 1 && tabs.close(tab.id)}
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
            <button
              type="button"
              className="editor-tab-close"
              aria-label="Close tab"
              onClick={(e) => {
                e.stopPropagation();
                tabs.close(tab.id);
                results.clear(tab.id);
              }}
            >
              ×
            </button>
          </div>
        );
      })}
      <button type="button" className="editor-tab-new" aria-label="New tab" title="New tab" onClick={() => tabs.open()}>
        +
      </button>
    </div>
  );
}
