/** Opens a document in a new editor tab on a connection, shows the Query view, and runs it if asked. */
import { EMBEDDED_ID } from '../state/connections-store.ts';
import type { Services } from '../state/services.ts';
import type { QueryInfoLevel, SaveTarget } from '../state/tabs-store.ts';

/**
 * Re-runs a recorded run: in the tab it came from when that tab is still open on the same connection
 * and still holds the same document, so tabs do not pile up; else (the tab was closed, or edited
 * since, whose edits a re-run must not overwrite) in a new tab.
 */
export function rerunInTab(services: Services, run: { document: string; connectionId: string; tabId?: string }): void {
  const origin = run.tabId ? services.tabs.get(run.tabId) : undefined;
  if (!origin || origin.connectionId !== run.connectionId || origin.text !== run.document) {
    openInTab(services, run.document, run.connectionId, true);
    return;
  }
  services.tabs.activate(origin.id);
  services.workbench.show('query');
  void services.run(origin.id);
}

/** `from`: the saved query or request file the document came from (Ctrl/Cmd+S in the tab writes it back). */
export function openInTab(services: Services, document: string, connectionId: string, run: boolean, from: { savedAs?: SaveTarget; queryInfoLevel?: QueryInfoLevel } = {}): void {
  const target = services.connections.get(connectionId) ? connectionId : EMBEDDED_ID;
  const tabId = services.tabs.open({ text: document, connectionId: target, ...from });
  services.workbench.show('query');
  if (run) void services.run(tabId);
}
