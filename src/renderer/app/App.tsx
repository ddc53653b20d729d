/**
 * The window: the view rail, the connections, and the workbench's views (Query, Upload, Streams,
 * History, Saved, Diff, Docs). It composes the features; they never import each other and talk through
 * the services. A view is mounted the first time it is shown and then kept (hidden), so a
 * half-filled form, a diff or an editor's state survive switching.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type JSX, type ReactNode } from 'react';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { Toaster } from '../components/Toaster.tsx';
import { ConnectionsSidebar } from '../features/connections/ConnectionsSidebar.tsx';
import { EnvelopeViewer } from '../features/envelope-viewer/EnvelopeViewer.tsx';
import { QueryEditorPane } from '../features/query-editor/QueryEditorPane.tsx';
import { ServicesContext, useStore, type Services } from '../state/services.ts';
import type { WorkbenchView } from '../state/workbench-store.ts';
import { ReproduceLocallyButton } from './ReproduceLocallyButton.tsx';
import { SaveToCollection } from './SaveToCollection.tsx';
import { SplitPane } from './SplitPane.tsx';
import { useEmbeddedServer } from './use-embedded-server.ts';
import { VIEW_LABELS, ViewRail } from './ViewRail.tsx';
import { DiffView } from './views/DiffView.tsx';
import { DocsView } from './views/DocsView.tsx';
import { HistoryView } from './views/HistoryView.tsx';
import { SavedView } from './views/SavedView.tsx';
import { StreamsView } from './views/StreamsView.tsx';
import { UploadView } from './views/UploadView.tsx';
import { WorkbenchContext } from './workbench-context.ts';
import type { WorkbenchServices } from './workbench-services.ts';

const VIEWS: Record<WorkbenchView, () => ReactNode> = {
  query: () => (
    <>
      <SplitPane
        left={<QueryEditorPane toolbarExtra={<ReproduceLocallyButton />} />}
        right={
          <ErrorBoundary what="The response viewer">
            <EnvelopeViewer />
          </ErrorBoundary>
        }
      />
      {/* Ctrl/Cmd+S: nothing on screen until it asks where to save. */}
      <SaveToCollection />
    </>
  ),
  upload: () => <UploadView />,
  streams: () => <StreamsView />,
  history: () => <HistoryView />,
  saved: () => <SavedView />,
  diff: () => <DiffView />,
  docs: () => <DocsView />,
};

/** Whether any stream session has an open socket, checked each second (for the rail's dot). */
function useLiveStreams(workbench: WorkbenchServices): boolean {
  const [live, setLive] = useState(false);
  useEffect(() => {
    const timer = setInterval(() => setLive(workbench.streams.live().length > 0), 1000);
    return () => clearInterval(timer);
  }, [workbench]);
  return live;
}

export function App(props: { services: Services; workbench: WorkbenchServices }): JSX.Element {
  const { workspace } = useEmbeddedServer(props.services);
  const { view, visited } = useStore(props.services.workbench);
  const live = useLiveStreams(props.workbench);
  return (
    <ServicesContext.Provider value={props.services}>
      <WorkbenchContext.Provider value={props.workbench}>
        <QueryClientProvider client={props.services.queryClient}>
          <div className="app">
            <ViewRail live={live} />
            <ErrorBoundary what="The connections list">
              <ConnectionsSidebar embeddedWorkspace={workspace} />
            </ErrorBoundary>
            <main className="workbench">
              {visited.map((v) => (
                <div key={v} id={`view-${v}`} role="tabpanel" aria-labelledby={`view-tab-${v}`} className="view" hidden={v !== view}>
                  {/* One view failing leaves the others, the rail and the connections working. */}
                  <ErrorBoundary what={`The ${VIEW_LABELS[v]} view`}>{VIEWS[v]()}</ErrorBoundary>
                </div>
              ))}
            </main>
          </div>
          <Toaster />
        </QueryClientProvider>
      </WorkbenchContext.Provider>
    </ServicesContext.Provider>
  );
}
