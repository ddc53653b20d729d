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
          services.connections.setEmbedded(status.url, { localAdmin: status.localAdmin, token: 'pageToken' in status ? (status.pageToken ?? null) : null });
          void services.queryClient.invalidateQueries({ predicate: (q) => touchesConnection(q.queryKey, EMBEDDED_ID) });
        } else if (status.state === 'starting') services.connections.setEmbeddedPending();
        else services.connections.setEmbeddedError(status.message);
      }),
    [services],
  );
  return { workspace };
}
