/** Opens a document in a new editor tab on a connection, shows the Query view, and runs it if asked. */
import { EMBEDDED_ID } from '../state/connections-store.ts';
import type { Services } from '../state/services.ts';

export function openInTab(services: Services, document: string, connectionId: string, run: boolean): void {
  const target = services.connections.get(connectionId) ? connectionId : EMBEDDED_ID;
  const tabId = services.tabs.open({ text: document, connectionId: target });
  services.workbench.show('query');
  if (run) void services.run(tabId);
}
