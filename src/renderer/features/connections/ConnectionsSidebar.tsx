/**
 * The left sidebar: every connection side by side, the one in use highlighted (the current tab's,
 * or the current view's for Upload, Streams and Saved). A click points the tab or the view at a
 * connection; remote ones can be added, signed in, edited, deleted.
 */
import { useState, type JSX } from 'react';
import type { Connection } from '../../state/connections-store.ts';
import { EMBEDDED_ID } from '../../state/connections-store.ts';
import { touchesConnection } from '../../state/query-keys.ts';
import { useServices, useStore } from '../../state/services.ts';
import { CONNECTION_VIEWS } from '../../state/workbench-store.ts';
import { ConnectionForm } from './ConnectionForm.tsx';
import { ConnectionItem } from './ConnectionItem.tsx';
import { SignInForm } from './SignInForm.tsx';

type DialogState = { kind: 'add' } | { kind: 'edit'; connection: Connection } | { kind: 'sign-in'; connection: Connection } | null;

export function ConnectionsSidebar(props: { embeddedWorkspace: string | null }): JSX.Element {
  const { connections, tabs, queryClient, platform, toasts, workbench } = useServices();
  const state = useStore(connections);
  const tabState = useStore(tabs);
  const { view } = useStore(workbench);
  const activeTab = tabState.tabs.find((t) => t.id === tabState.activeId);
  const viewBound = CONNECTION_VIEWS.includes(view);
  const inUse = activeTab ? workbench.connectionOf(view, activeTab.connectionId, (id) => state.connections.some((c) => c.id === id)) : null;
  const use = (id: string) => {
    if (viewBound) workbench.setConnection(view, id);
    else if (activeTab) tabs.setConnection(activeTab.id, id);
  };
  const [dialog, setDialog] = useState<DialogState>(null);

  const invalidate = (id: string) => queryClient.invalidateQueries({ predicate: (q) => touchesConnection(q.queryKey, id) });

  const remove = async (c: Connection) => {
    if (!window.confirm(`Delete the connection "${c.name}"? Its stored token is deleted too.`)) return;
    await connections.remove(c.id);
    tabs.reassignConnection(c.id, EMBEDDED_ID);
    toasts.show(`Deleted ${c.name}`);
  };

  return (
    <nav className="sidebar" aria-label="Connections">
      <header className="sidebar-head">
        <span className="sidebar-title">Connections</span>
        <button type="button" className="icon-btn" aria-label="Add connection" title="Add a remote connection" onClick={() => setDialog({ kind: 'add' })}>
          +
        </button>
      </header>
      {state.embeddedPending && <p className="sidebar-note">Starting the embedded server…</p>}
      {state.embeddedError && (
        <p className="sidebar-note text-error" role="alert">
          {state.embeddedError}
        </p>
      )}
      <ul className="conn-list">
        {state.connections.map((c) => (
          <ConnectionItem
            key={c.id}
            connection={c}
            inUse={inUse === c.id}
            workspaceLabel={c.kind === 'embedded' ? (props.embeddedWorkspace ? props.embeddedWorkspace.split(/[\\/]/).pop() : 'demo workspace') : undefined}
            onUse={() => use(c.id)}
            onSignIn={() => setDialog({ kind: 'sign-in', connection: c })}
            onSignOut={async () => {
              await connections.signOut(c.id);
              await invalidate(c.id);
            }}
            onEdit={() => setDialog({ kind: 'edit', connection: c })}
            onDelete={() => void remove(c)}
            onRestoreLocalAdmin={async () => {
              connections.restoreLocalAdmin();
              await invalidate(c.id);
              toasts.show('Signed in as the local admin again');
            }}
          />
        ))}
      </ul>
      {platform.openWorkspace && (
        <footer className="sidebar-foot">
          <button type="button" className="btn btn-small" onClick={() => void platform.openWorkspace?.()}>
            Open workspace…
          </button>
        </footer>
      )}
      {dialog?.kind === 'add' && (
        <ConnectionForm
          onClose={() => setDialog(null)}
          onSave={(draft) => {
            const id = connections.add(draft);
            const added = connections.get(id);
            setDialog(added ? { kind: 'sign-in', connection: added } : null);
          }}
        />
      )}
      {dialog?.kind === 'edit' && (
        <ConnectionForm
          initial={dialog.connection}
          onClose={() => setDialog(null)}
          onSave={async (draft) => {
            if (dialog.connection.kind === 'embedded') connections.setReadOnly(dialog.connection.id, draft.readOnly ?? false);
            else await connections.update(dialog.connection.id, draft);
            if (draft.answerLimit !== dialog.connection.answerLimit) connections.setAnswerLimit(dialog.connection.id, draft.answerLimit);
            await invalidate(dialog.connection.id);
            setDialog(null);
          }}
        />
      )}
      {dialog?.kind === 'sign-in' && <SignInForm connection={dialog.connection} onClose={() => setDialog(null)} />}
    </nav>
  );
}
