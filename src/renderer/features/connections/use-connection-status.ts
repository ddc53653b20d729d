/** Reachability, version and signed-in user of a connection, refreshed in the background. */
import { useQuery } from '@tanstack/react-query';
import type { Connection } from '../../state/connections-store.ts';
import { connectionKeys } from '../../state/query-keys.ts';
import { useStartupSettled } from '../../state/editor-ready.ts';
import { useServices } from '../../state/services.ts';
import { fetchHealth, hasCredential, verifyAuthentication, type SignedInUser } from '../../transport/jql-client.ts';

export interface ConnectionStatus {
  version: string;
  user: SignedInUser | null;
}

export function useConnectionStatus(connection: Connection) {
  const { platform, connections } = useServices();
  return useQuery({
    queryKey: connectionKeys.status(connection.id, connection.baseUrl),
    queryFn: async (): Promise<ConnectionStatus> => {
      const target = connections.target(connection.id);
      if (!target) throw new Error('The connection is gone.');
      const health = await fetchHealth(platform.transport, target);
      let user: SignedInUser | null = null;
      if (hasCredential(target) || target.authClass === 'session') {
        user = await verifyAuthentication(platform.transport, target).catch(() => null);
        // A stored token the server no longer accepts: show the connection signed out.
        if (!user && hasCredential(target) && connection.kind === 'remote') await connections.markSignedOut(connection.id);
      }
      return { version: health.version, user };
    },
    // Not while the window starts: the editor's Monaco chunk goes first (state/editor-ready.ts).
    enabled: useStartupSettled(),
    refetchInterval: 30_000,
    retry: false,
    staleTime: 10_000,
  });
}
