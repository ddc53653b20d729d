/**
 * Streams: the live stream inspector on one connection. Its session (socket, log, subscriptions)
 * lives in the app's StreamSessions, so switching views or connections keeps every log.
 */
import { useEffect, type JSX } from 'react';
import { StreamInspectorPanel } from '../../features/stream-inspector/index.ts';
import { useServices } from '../../state/services.ts';
import { useDescribes } from '../../state/use-describes.ts';
import { useWorkbench } from '../workbench-context.ts';
import { FilterEditor } from './FilterEditor.tsx';
import { useViewConnection } from './use-view-connection.ts';
import { ConnectionPicker, ViewHeader } from './ViewHeader.tsx';

export function StreamsView(): JSX.Element {
  const { toasts } = useServices();
  const { streams, saveText } = useWorkbench();
  const { connection, connections, select } = useViewConnection('streams');
  const session = connection ? streams.get(connection.id) : null;
  const describes = useDescribes(connection ? [connection] : []);
  const describe = (connection && describes.get(connection.id)?.describe) || null;

  // Opening the view on a connection connects it once; after that the user decides.
  useEffect(() => {
    if (session && session.getSnapshot().connection === 'idle') session.connect();
  }, [session]);

  return (
    <div className="view-column">
      <ViewHeader title="Streams" hint="live events from /jql-streams">
        {connection && <ConnectionPicker label="Stream connection" value={connection.id} connections={connections} onChange={select} />}
      </ViewHeader>
      {session && connection ? (
        <StreamInspectorPanel
          key={connection.id}
          session={session}
          describe={describe}
          connectionLabel={connection.name}
          onExport={(text, name) =>
            void saveText(text, name, 'application/x-ndjson').then(
              (where) => where && toasts.show(`Exported ${name} (${where})`),
              (err: Error) => toasts.show(`Could not export: ${err.message}`, 'error'),
            )
          }
          renderFilterEditor={(p) => <FilterEditor {...p} describe={describe} />}
        />
      ) : (
        <p className="empty">Pick a connection to inspect its streams.</p>
      )}
    </div>
  );
}
