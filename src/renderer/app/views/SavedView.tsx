/**
 * Saved queries: collections, `{{variables}}` from the connection's environment, import/export.
 * Open and Run put the document in a new editor tab (Run with the variables filled in).
 */
import type { JSX } from 'react';
import { SavedQueriesPanel } from '../../features/saved-queries/index.ts';
import { useServices, useStore } from '../../state/services.ts';
import { openInTab } from '../open-in-tab.ts';
import { useWorkbench } from '../workbench-context.ts';
import { useViewConnection } from './use-view-connection.ts';
import { ConnectionPicker, ViewHeader } from './ViewHeader.tsx';

export function SavedView(): JSX.Element {
  const services = useServices();
  const { savedQueries, saveText } = useWorkbench();
  const tabState = useStore(services.tabs);
  const active = tabState.tabs.find((t) => t.id === tabState.activeId) ?? tabState.tabs[0]!;
  const { connection, connections, select } = useViewConnection('saved');
  return (
    <div className="view-column">
      <ViewHeader title="Saved queries" hint="collections · {{variables}} per connection">
        {connection && <ConnectionPicker label="Saved queries connection" value={connection.id} connections={connections} onChange={select} />}
      </ViewHeader>
      <div className="view-scroll">
        <SavedQueriesPanel
          store={savedQueries}
          connection={connection ? { id: connection.id, name: connection.name } : null}
          currentDocument={active.text}
          onOpen={(query) => openInTab(services, query.document, connection?.id ?? active.connectionId, false)}
          onRun={(_query, document) => openInTab(services, document, connection?.id ?? active.connectionId, true)}
          onExport={(json, name) =>
            void saveText(json, name, 'application/json').then(
              (where) => where && services.toasts.show(`Exported ${name} (${where})`),
              (err: Error) => services.toasts.show(`Could not export: ${err.message}`, 'error'),
            )
          }
        />
      </div>
    </div>
  );
}
