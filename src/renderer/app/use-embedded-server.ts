/** Follows the embedded server (Electron main or console-config.json) into the connections store. */
import { useEffect, useState } from 'react';
import { EMBEDDED_ID } from '../state/connections-store.ts';
import { touchesConnection } from '../state/query-keys.ts';
import type { Services } from '../state/services.ts';

export function useEmbeddedServer(services: Services): { workspace: string | null } {
  const [workspace, setWorkspace] = useState<string | null>(null);
  useEffect(
    () =>
      services.platform.watchEmbedded((status) => {
        setWorkspace(status.workspace);
        if (status.state === 'running') {
          services.connections.setEmbedded(status.url, status.localAdminToken, status.localAdmin === true);
          void services.queryClient.invalidateQueries({ predicate: (q) => touchesConnection(q.queryKey, EMBEDDED_ID) });
        } else if (status.state === 'starting') services.connections.setEmbeddedPending();
        else services.connections.setEmbeddedError(status.message);
      }),
    [services],
  );
  return { workspace };
}
