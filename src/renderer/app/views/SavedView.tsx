/**
 * Saved queries: collection folders on disk (run and edited here, docs/collections.md), the in-app
 * collections, `{{variables}}` from the connection's environment, import/export.
 * Open and Run put the document in a new editor tab (Run with the variables filled in).
 */
import type { JSX } from 'react';
import { CollectionFoldersPanel } from '../../features/collection-folders/index.ts';
import { SavedQueriesPanel } from '../../features/saved-queries/index.ts';
import { schemaKeys } from '../../state/query-keys.ts';
import type { DescribeOutcome } from '../../transport/jql-client.ts';
import { useServices, useStore } from '../../state/services.ts';
import { openInTab } from '../open-in-tab.ts';
import { useWorkbench } from '../workbench-context.ts';
import { useViewConnection } from './use-view-connection.ts';
import { ConnectionPicker, ViewHeader } from './ViewHeader.tsx';

export function SavedView(): JSX.Element {
  const services = useServices();
  const { savedQueries, saveText, folders } = useWorkbench();
  const tabState = useStore(services.tabs);
  const active = tabState.tabs.find((t) => t.id === tabState.activeId) ?? tabState.tabs[0]!;
  const { connection, connections, select } = useViewConnection('saved');
  const { collectionFolder } = useStore(services.workbench);
  const runContext = () => {
    const target = connection ? services.connections.target(connection.id) : null;
    if (!connection || !target) return null;
    const describe = services.queryClient.getQueryData<DescribeOutcome>(schemaKeys.describe(connection.id, connection.baseUrl))?.describe ?? null;
    return { target, connection, describe, transport: services.platform.transport };
  };
  return (
    <div className="view-column">
      <ViewHeader title="Saved queries" hint="collections · {{variables}} per connection">
        {connection && <ConnectionPicker label="Saved queries connection" value={connection.id} connections={connections} onChange={select} />}
      </ViewHeader>
      <div className="view-scroll">
        <CollectionFoldersPanel
          client={folders}
          runContext={runContext}
          openFolder={collectionFolder}
          onOpenFolder={(id) => services.workbench.openCollectionFolder(id)}
          onOpen={(document, from) =>
            openInTab(services, document, connection?.id ?? active.connectionId, false, { savedAs: { kind: 'folder', folderId: from.folderId, path: from.path }, queryInfoLevel: from.queryInfoLevel })
          }
        />
        <SavedQueriesPanel
          store={savedQueries}
          connection={connection ? { id: connection.id, name: connection.name } : null}
          currentDocument={active.text}
          onOpen={(query, collection) => openInTab(services, query.document, connection?.id ?? active.connectionId, false, { savedAs: { kind: 'saved', collectionId: collection.id, queryId: query.id } })}
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
