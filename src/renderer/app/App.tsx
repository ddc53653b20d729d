/**
 * The window: the view rail, the connections, and the workbench's views (Query, Upload, Streams,
 * History, Saved, Diff, Docs). It composes the features; they never import each other and talk through
 * the services. A view is mounted the first time it is shown and then kept (hidden), so a
 * half-filled form, a diff or an editor's state survive switching.
 *
 * Each view is a chunk of its own, fetched the first time it is shown: the window paints and asks
 * its server for the schema without waiting for Monaco or for views nobody opened yet.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import '../monaco/early-json-worker.ts';
import { lazy, Suspense, useEffect, useState, type ComponentType, type JSX, type LazyExoticComponent } from 'react';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { Toaster } from '../components/Toaster.tsx';
import { ConnectionsSidebar } from '../features/connections/ConnectionsSidebar.tsx';
import { ServicesContext, useStore, type Services } from '../state/services.ts';
import { PrefetchDescribes } from './PrefetchDescribes.tsx';
import type { WorkbenchView } from '../state/workbench-store.ts';
import { useEmbeddedServer } from './use-embedded-server.ts';
import { VIEW_LABELS, ViewRail } from './ViewRail.tsx';
import { WorkbenchContext } from './workbench-context.ts';
import type { WorkbenchServices } from './workbench-services.ts';

// The Query view is what the window opens on: its chunk (Monaco) starts loading with this module,
// not at first render, and so does the JSON worker its editor needs (early-json-worker.ts, above).
const queryView = import('./views/QueryView.tsx');

const VIEWS: Record<WorkbenchView, LazyExoticComponent<ComponentType>> = {
  query: lazy(() => queryView.then((m) => ({ default: m.QueryView }))),
  upload: lazy(() => import('./views/UploadView.tsx').then((m) => ({ default: m.UploadView }))),
  streams: lazy(() => import('./views/StreamsView.tsx').then((m) => ({ default: m.StreamsView }))),
  history: lazy(() => import('./views/HistoryView.tsx').then((m) => ({ default: m.HistoryView }))),
  saved: lazy(() => import('./views/SavedView.tsx').then((m) => ({ default: m.SavedView }))),
  diff: lazy(() => import('./views/DiffView.tsx').then((m) => ({ default: m.DiffView }))),
  docs: lazy(() => import('./views/DocsView.tsx').then((m) => ({ default: m.DocsView }))),
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
              {visited.map((v) => {
                const View = VIEWS[v];
                return (
                  <div key={v} id={`view-${v}`} role="tabpanel" aria-labelledby={`view-tab-${v}`} className="view" hidden={v !== view}>
                    {/* One view failing (its chunk included) leaves the others, the rail and the connections working. */}
                    <ErrorBoundary what={`The ${VIEW_LABELS[v]} view`}>
                      <Suspense fallback={null}>
                        <View />
                      </Suspense>
                    </ErrorBoundary>
                  </div>
                );
              })}
            </main>
          </div>
          <Toaster />
          <PrefetchDescribes />
        </QueryClientProvider>
      </WorkbenchContext.Provider>
    </ServicesContext.Provider>
  );
}
