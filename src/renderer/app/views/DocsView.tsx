/** Docs: docs/protocol.md and docs/workspace.md inside the app, where the editor's hovers and the errors list link to. */
import type { JSX } from 'react';
import { DocsPanel } from '../../features/protocol-docs/index.ts';
import { useServices, useStore } from '../../state/services.ts';
import { ViewHeader } from './ViewHeader.tsx';

export function DocsView(): JSX.Element {
  const { workbench } = useServices();
  const { docs } = useStore(workbench);
  return (
    <div className="view-column">
      <ViewHeader title="Docs" hint="the protocol and the workspace, as this server implements them" />
      <DocsPanel place={docs} onNavigate={(place) => workbench.openDocs(place)} />
    </div>
  );
}
