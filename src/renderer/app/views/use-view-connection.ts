/**
 * The connection a view works on (state/workbench-store.ts): the view's own pick when it has one
 * that still exists, else the active editor tab's.
 */
import type { Connection } from '../../state/connections-store.ts';
import { useServices, useStore } from '../../state/services.ts';
import type { WorkbenchView } from '../../state/workbench-store.ts';

export function useViewConnection(view: WorkbenchView): { connection: Connection | null; connections: Connection[]; select: (id: string) => void } {
  const { connections, tabs, workbench } = useServices();
  const connState = useStore(connections);
  const tabState = useStore(tabs);
  useStore(workbench);
  const active = tabState.tabs.find((t) => t.id === tabState.activeId) ?? tabState.tabs[0]!;
  const id = workbench.connectionOf(view, active.connectionId, (c) => connState.connections.some((x) => x.id === c));
  return {
    connection: connState.connections.find((c) => c.id === id) ?? null,
    connections: connState.connections,
    select: (connectionId) => workbench.setConnection(view, connectionId),
  };
}
