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
import { lazy, Suspense, useEffect, useState, type ComponentType, type JSX, type LazyExoticComponent } from 'react';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { Toaster } from '../components/Toaster.tsx';
import { ConnectionsSidebar } from '../features/connections/ConnectionsSidebar.tsx';
import { ServicesContext, useStore, type Services } from '../state/services.ts';
import { PrefetchDescribes } from './PrefetchDescribes.tsx';
import type { WorkbenchView } from '../state/workbench-store.ts';
import { settleStartup, startupSettled } from '../state/editor-ready.ts';
import { useEmbeddedServer } from './use-embedded-server.ts';
import { VIEW_LABELS, ViewRail } from './ViewRail.tsx';
import { WorkbenchContext } from './workbench-context.ts';
import type { WorkbenchServices } from './workbench-services.ts';

// The Query view is what the window opens on: its chunk (Monaco) starts loading with this module,
// not at first render. The JSON worker its editor needs starts when that chunk runs (monaco.ts), as
// on the floor page of the opening bench: started with this module, its thread compiled and booted
// while the Monaco chunk was still being parsed and made the editor usable later (issue 31).
const queryView = import('./views/QueryView.tsx');

// A view's module, fetched once: the first call starts the download, later ones share it.
const VIEW_MODULES: Record<Exclude<WorkbenchView, 'query'>, () => Promise<ComponentType>> = {
  upload: () => import('./views/UploadView.tsx').then((m) => m.UploadView),
  streams: () => import('./views/StreamsView.tsx').then((m) => m.StreamsView),
  history: () => import('./views/HistoryView.tsx').then((m) => m.HistoryView),
  saved: () => import('./views/SavedView.tsx').then((m) => m.SavedView),
  diff: () => import('./views/DiffView.tsx').then((m) => m.DiffView),
  docs: () => import('./views/DocsView.tsx').then((m) => m.DocsView),
};

const VIEWS: Record<WorkbenchView, LazyExoticComponent<ComponentType>> = {
  query: lazy(() => queryView.then((m) => ({ default: m.QueryView }))),
  ...(Object.fromEntries(
    Object.entries(VIEW_MODULES).map(([view, load]) => [view, lazy(() => load().then((component) => ({ default: component })))]),
  ) as Record<Exclude<WorkbenchView, 'query'>, LazyExoticComponent<ComponentType>>),
};

/**
 * Once start-up is over (the query editor on screen, state/editor-ready.ts) and the window is idle,
 * the other views' chunks are fetched in the background, so a first click on a view shows it at once
 * instead of an empty panel while its chunk loads. Not before: fetched and compiled while Monaco's
 * chunk is, they made the editor usable later (issue 31). The JavaScript before first paint stays
 * the same.
 */
function usePrefetchViews(): void {
  useEffect(() => {
    let cancelled = false;
    let handle: number | undefined;
    const prefetch = (): void => {
      if (cancelled) return;
      for (const load of Object.values(VIEW_MODULES)) void load().catch(() => undefined);
    };
    void startupSettled.then(() => {
      // Chromium and Electron have requestIdleCallback; the timeout is for a window that never idles.
      if (!cancelled) handle = requestIdleCallback(prefetch, { timeout: 3000 });
    });
    return () => {
      cancelled = true;
      if (handle !== undefined) cancelIdleCallback(handle);
    };
  }, []);
}

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
  // A window that opens on another view has no editor to wait for before its connections' checks.
  const [openedOn] = useState(view);
  useEffect(() => {
    if (openedOn !== 'query') settleStartup();
  }, [openedOn]);
  const live = useLiveStreams(props.workbench);
  usePrefetchViews();
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
                      <Suspense fallback={<p className="view-loading" role="status" data-testid="view-loading">Opening {VIEW_LABELS[v]}…</p>}>
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
