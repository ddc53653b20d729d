/**
 * Query: the editor and the answer side by side. Its own chunk with Monaco in it (App.tsx), so the
 * window paints and reaches its server while the editor loads.
 */
import type { JSX } from 'react';
import { ErrorBoundary } from '../../components/ErrorBoundary.tsx';
import { EnvelopeViewer } from '../../features/envelope-viewer/EnvelopeViewer.tsx';
import { QueryEditorPane } from '../../features/query-editor/QueryEditorPane.tsx';
import { ApproveSnapshotButton } from '../ApproveSnapshotButton.tsx';
import { ReproduceLocallyButton } from '../ReproduceLocallyButton.tsx';
import { SaveToCollection } from '../SaveToCollection.tsx';
import { SplitPane } from '../SplitPane.tsx';

export function QueryView(): JSX.Element {
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
            <EnvelopeViewer />
          </ErrorBoundary>
        }
      />
      {/* Ctrl/Cmd+S: nothing on screen until it asks where to save. */}
      <SaveToCollection />
    </>
  );
}
