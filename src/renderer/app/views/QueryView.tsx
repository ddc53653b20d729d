/**
 * Query: the editor and the answer side by side. Its own chunk with Monaco in it (App.tsx), so the
 * window paints and reaches its server while the editor loads.
 */
import type { JSX } from 'react';
import { useServices, useStore } from '../../state/services.ts';
import { useDescribes } from '../../state/use-describes.ts';
import { ErrorBoundary } from '../../components/ErrorBoundary.tsx';
import { EnvelopeViewer } from '../../features/envelope-viewer/EnvelopeViewer.tsx';
import { QueryEditorPane } from '../../features/query-editor/QueryEditorPane.tsx';
import { ApproveSnapshotButton } from '../ApproveSnapshotButton.tsx';
import { recordExplainer } from '../explain-record.ts';
import { ReproduceLocallyButton } from '../ReproduceLocallyButton.tsx';
import { SaveToCollection } from '../SaveToCollection.tsx';
import { SplitPane } from '../SplitPane.tsx';

export function QueryView(): JSX.Element {
  const services = useServices();
  const describes = useDescribes(useStore(services.connections).connections);
  const describeOf = (id: string) => describes.get(id)?.describe ?? null;
  return (
    <>
      <SplitPane
        left={
          <QueryEditorPane
            toolbarExtra={
              <>
                <ReproduceLocallyButton />
                <ApproveSnapshotButton />
              </>
            }
          />
        }
        right={
          <ErrorBoundary what="The response viewer">
            <EnvelopeViewer recordExplainer={(run) => recordExplainer(services, describeOf, run)} />
          </ErrorBoundary>
        }
      />
      {/* Ctrl/Cmd+S: nothing on screen until it asks where to save. */}
      <SaveToCollection />
    </>
  );
}
