/**
 * Follows the workspace a connection's server runs (docs/workspace.md "Changing a workspace while it
 * runs"): `/healthz` alone, about every second for a server under `serve --watch` (it answers a
 * `watch` part), every 30 s for any other. When the workspace digest changes the connection's
 * `describe` is fetched again, so completion, hovers and the upload form follow without a reload.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { WatchReport } from '../../response/schema/account-schema.ts';
import type { Connection } from '../../state/connections-store.ts';
import { connectionKeys, schemaKeys } from '../../state/query-keys.ts';
import { useStartupSettled } from '../../state/editor-ready.ts';
import { useServices } from '../../state/services.ts';
import { fetchHealth } from '../../transport/jql-client.ts';

export const WATCHING_POLL_MS = 1_000;
const IDLE_POLL_MS = 30_000;

/** The last save the server did not apply (error and preview), or null when there is none. */
export function useWorkspaceWatch(connection: Connection): WatchReport | null {
  const { platform, connections, queryClient } = useServices();
  const health = useQuery({
    queryKey: connectionKeys.health(connection.id, connection.baseUrl),
    queryFn: async () => {
      const target = connections.target(connection.id);
      if (!target) throw new Error('The connection is gone.');
      return fetchHealth(platform.transport, target);
    },
    // Not while the window starts: the editor's Monaco chunk goes first (state/editor-ready.ts).
    enabled: useStartupSettled(),
    // A watching server applies a save in place, but restarts for a limit it reads once at start:
    // keep polling through the moment it is down.
    refetchInterval: (query) => (query.state.data?.watch !== undefined ? WATCHING_POLL_MS : IDLE_POLL_MS),
    retry: false,
  });
  const digest = health.data?.digest;
  const seen = useRef(digest);
  useEffect(() => {
    if (digest === undefined) return;
    const before = seen.current;
    seen.current = digest;
    // The first digest seen is the one the describe already in the cache was fetched against.
    if (before !== undefined && before !== digest) void queryClient.invalidateQueries({ queryKey: schemaKeys.describe(connection.id, connection.baseUrl) });
  }, [digest, queryClient, connection.id, connection.baseUrl]);
  const watch = health.data?.watch;
  return watch && (watch.error !== null || watch.preview !== null) ? watch : null;
}
