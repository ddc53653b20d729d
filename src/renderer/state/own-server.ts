/**
 * Whose words a label is. The embedded server is the console's own (and so is a copy "Reproduce
 * locally" started from the same program): its version, status texts and intents are the console
 * speaking, shown plainly. Only a remote server's labels are marked as the server's words
 * (components/ServerWords.tsx), where they could otherwise pass for the console's.
 */
import type { Connection } from './connections-store.ts';

/** True when `connectionId` names a connection the console runs itself; an unknown id is not one. */
export function isOwnServer(connections: readonly Pick<Connection, 'id' | 'kind'>[], connectionId: string | null | undefined): boolean {
  const connection = connections.find((c) => c.id === connectionId);
  return connection !== undefined && connection.kind !== 'remote';
}
