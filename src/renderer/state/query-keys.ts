/**
 * TanStack Query key factories, `[area, name, params]`. Signing in or out of a
 * connection invalidates every key whose params name it: its status and its schema both depend on
 * the user.
 */
export const connectionKeys = {
  status: (connectionId: string, baseUrl: string) => ['connection', 'status', { connectionId, baseUrl }] as const,
  /** `/healthz` alone, polled for the workspace digest and a watching server's last unapplied save. */
  health: (connectionId: string, baseUrl: string) => ['connection', 'health', { connectionId, baseUrl }] as const,
};

export const schemaKeys = {
  describe: (connectionId: string, baseUrl: string) => ['schema', 'describe', { connectionId, baseUrl }] as const,
};

/** Collection folders the embedded server serves (polled, so a `git pull` shows up). */
export const folderKeys = {
  list: () => ['collections', 'list', {}] as const,
  folder: (id: string) => ['collections', 'folder', { id }] as const,
};

/** For `invalidateQueries({ predicate })`: does this key belong to that connection? */
export function touchesConnection(queryKey: readonly unknown[], connectionId: string): boolean {
  const params = queryKey[2];
  return typeof params === 'object' && params !== null && (params as { connectionId?: unknown }).connectionId === connectionId;
}
