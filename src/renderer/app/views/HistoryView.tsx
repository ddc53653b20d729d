/** History: every run, searchable; re-run or open one in a new editor tab. */
import type { JSX } from 'react';
import { HistoryPanel } from '../../features/history/index.ts';
import { useServices, useStore } from '../../state/services.ts';
import { openInTab, rerunInTab } from '../open-in-tab.ts';
import { useWorkbench } from '../workbench-context.ts';
import { ViewHeader } from './ViewHeader.tsx';

export function HistoryView(): JSX.Element {
  const services = useServices();
  const { history } = useWorkbench();
  const { connections } = useStore(services.connections);
  return (
    <div className="view-column">
      <ViewHeader title="History" hint="every run, newest first · re-run goes back to its tab while it is open and unchanged" />
      <HistoryPanel
        store={history}
        connections={connections.map((c) => ({ id: c.id, name: c.name }))}
        onRerun={(run) => rerunInTab(services, run)}
        onOpen={(run) => openInTab(services, run.document, run.connectionId, false)}
      />
    </div>
  );
}
