/**
 * "Reproduce locally" in the Query view's toolbar, for a tab on a remote connection: the dialog
 * (features/reproduce-locally) makes a copy of what the tab's query reads, and then this adds the
 * copy as a `local` connection and opens the same document on it in a new tab. The Diff view can
 * then compare the remote and the local answer.
 */
import { useState, type JSX } from 'react';
import type { CloneConnection } from '../../shared/clone.ts';
import { ReproduceDialog, reproduceRequest } from '../features/reproduce-locally/index.ts';
import { useServices, useStore } from '../state/services.ts';
import { substituteVariables } from '../state/variables.ts';
import { useWorkbench } from './workbench-context.ts';

export function ReproduceLocallyButton(): JSX.Element | null {
  const services = useServices();
  const { clones } = useWorkbench();
  const tabState = useStore(services.tabs);
  const { connections } = useStore(services.connections);
  const [open, setOpen] = useState(false);
  const active = tabState.tabs.find((t) => t.id === tabState.activeId) ?? tabState.tabs[0];
  const connection = connections.find((c) => c.id === active?.connectionId);
  if (!active || !connection || connection.kind !== 'remote') return null;

  const done = (copy: CloneConnection) => {
    const id = services.connections.addLocal({ name: copy.name, baseUrl: copy.url, connectionId: copy.connectionId });
    services.tabs.open({ text: active.text, connectionId: id, queryInfoLevel: active.queryInfoLevel });
    services.workbench.show('query');
    services.toasts.show(`Opened the tab on ${copy.name}; the Diff view compares it with ${connection.name}.`, 'info', 8000);
    setOpen(false);
  };

  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => setOpen(true)} title={`Copy what this query reads from ${connection.name} into a local server, and open the tab on it`}>
        <span>
          Reproduce<span className="compact-hidden"> locally</span>
        </span>
      </button>
      {open && (
        <ReproduceDialog
          connectionName={connection.name}
          client={clones}
          build={(choices) => {
            const filled = substituteVariables(active.text, services.variables.variables(connection.id));
            if (!filled.ok) return { ok: false, reason: filled.errors.map((e) => e.message).join('\n') };
            const target = services.connections.target(connection.id);
            return reproduceRequest(filled.text, { name: connection.name, baseUrl: connection.baseUrl, authClass: connection.authClass, token: target?.token ?? null }, choices);
          }}
          onDone={done}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
