/**
 * The describe of every connection a tab uses, fetched with TanStack Query (one cached entry per
 * connection and URL). A server without describe yields a reason instead, and plain JSON editing.
 */
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { DescribeResult } from '../../shared/protocol.ts';
import type { Misfit } from '../response/result-view.ts';
import type { Connection } from './connections-store.ts';
import { shareDescribe } from './describe-sharing.ts';
import { schemaKeys } from './query-keys.ts';
import { useServices, useStore } from './services.ts';
import { fetchDescribe, type DescribeOutcome } from '../transport/jql-client.ts';

export interface DescribeInfo {
  describe: DescribeResult | null;
  /** Why there is no schema (loading, no describe on the server, unreachable, unreadable). */
  reason: string | null;
  /** Parts of the describe that did not fit and were left out (the rest is used). */
  misfits: Misfit[];
}

/** How each connection's describe is kept: fresh for five minutes, and a large one refetched is not compared with the old. */
export const DESCRIBE_QUERY_OPTIONS = { staleTime: 5 * 60_000, retry: 1, structuralSharing: shareDescribe } as const;

export function useDescribes(connections: Connection[]): Map<string, DescribeInfo> {
  const { platform, connections: store } = useServices();
  const results = useQueries({
    queries: connections.map((c) => ({
      queryKey: schemaKeys.describe(c.id, c.baseUrl),
      queryFn: async (): Promise<DescribeOutcome> => {
        const target = store.target(c.id);
        if (!target) return { describe: null, reason: 'The connection is gone.' };
        return fetchDescribe(platform.transport, target);
      },
      ...DESCRIBE_QUERY_OPTIONS,
    })),
  });
  const key = results.map((r) => r.dataUpdatedAt + ':' + r.status).join('|');
  return useMemo(() => {
    const map = new Map<string, DescribeInfo>();
    connections.forEach((c, i) => {
      const r = results[i]!;
      if (r.data?.describe) map.set(c.id, { describe: r.data.describe, reason: null, misfits: r.data.misfits });
      else if (r.data) map.set(c.id, { describe: null, reason: r.data.reason, misfits: [] });
      else if (r.error) map.set(c.id, { describe: null, reason: r.error.message, misfits: [] });
      else map.set(c.id, { describe: null, reason: 'Loading the schema…', misfits: [] });
    });
    return map;
    // `key` captures every result change; the results array itself is new on each render.
  }, [key, connections]);
}

/**
 * The describes of the connections the query tabs use: the editor's schemas. The app starts them
 * before the editor's chunk has loaded (PrefetchDescribes), so completion has its schema at once.
 */
export function useTabDescribes(): Map<string, DescribeInfo> {
  const { tabs, connections } = useServices();
  const tabState = useStore(tabs);
  const connState = useStore(connections);
  const usedIds = [...new Set(tabState.tabs.map((t) => t.connectionId))].sort().join(',');
  const used = useMemo(() => connState.connections.filter((c) => usedIds.split(',').includes(c.id)), [connState.connections, usedIds]);
  return useDescribes(used);
}
