/**
 * The window: connections on the left, the editor in the middle, the response on the right. It
 * composes the features; they never import each other and talk through the services.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import type { JSX } from 'react';
import { Toaster } from '../components/Toaster.tsx';
import { ConnectionsSidebar } from '../features/connections/ConnectionsSidebar.tsx';
import { EnvelopeViewer } from '../features/envelope-viewer/EnvelopeViewer.tsx';
import { QueryEditorPane } from '../features/query-editor/QueryEditorPane.tsx';
import { ServicesContext, type Services } from '../state/services.ts';
import { SplitPane } from './SplitPane.tsx';
import { useEmbeddedServer } from './use-embedded-server.ts';

export function App(props: { services: Services }): JSX.Element {
  const { workspace } = useEmbeddedServer(props.services);
  return (
    <ServicesContext.Provider value={props.services}>
      <QueryClientProvider client={props.services.queryClient}>
        <div className="app">
          <ConnectionsSidebar embeddedWorkspace={workspace} />
          <main className="workbench">
            <SplitPane left={<QueryEditorPane />} right={<EnvelopeViewer />} />
          </main>
        </div>
        <Toaster />
      </QueryClientProvider>
    </ServicesContext.Provider>
  );
}
