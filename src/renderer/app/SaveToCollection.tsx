/**
 * Ctrl/Cmd+S in the Query view: saves the active tab's document into a collection (app/save-tab.ts),
 * asking where the first time (SaveDialog). Nothing to see until then: the keys work anywhere in the
 * view, the editor included, and the browser's "Save page" never opens.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore, type JSX } from 'react';
import { folderKeys } from '../state/query-keys.ts';
import { useServices, useStore } from '../state/services.ts';
import { SaveDialog } from './SaveDialog.tsx';
import { saveAgain, saveInto, suggestedName, type SaveDeps, type SaveOutcome, type SavePlace } from './save-tab.ts';
import { useWorkbench } from './workbench-context.ts';

export function SaveToCollection(): JSX.Element | null {
  const services = useServices();
  const { folders, savedQueries } = useWorkbench();
  const queryClient = useQueryClient();
  const { collectionFolder } = useStore(services.workbench);
  const saved = useSyncExternalStore(savedQueries.subscribe, savedQueries.getSnapshot);
  // The tab being asked about (the active one when the keys were pressed).
  const [asking, setAsking] = useState<string | null>(null);
  const deps: SaveDeps = { folders, saved: savedQueries };

  const done = (tabId: string, outcome: SaveOutcome) => {
    services.tabs.setSavedAs(tabId, outcome.target);
    if (outcome.snapshot) queryClient.setQueryData(folderKeys.folder(outcome.snapshot.id), outcome.snapshot);
    services.toasts.show(`Saved ${outcome.where}`);
  };

  const save = async () => {
    const tab = services.tabs.active;
    try {
      const outcome = await saveAgain(deps, tab);
      if (outcome) done(tab.id, outcome);
      else setAsking(tab.id);
    } catch (error) {
      services.toasts.show(`Not saved: ${(error as Error).message}`, 'error');
    }
  };
  const saveRef = useRef(save);
  saveRef.current = save;

  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== 's' || e.defaultPrevented) return;
      // Only while the Query view shows, and not over an open dialog (this one included).
      if (services.workbench.getSnapshot().view !== 'query') return;
      if ((e.target as HTMLElement | null)?.closest('dialog')) return;
      e.preventDefault();
      void saveRef.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [services]);

  const tab = asking ? services.tabs.get(asking) : undefined;
  if (!tab) return null;
  return (
    <SaveDialog
      folders={folders}
      collections={saved.collections}
      openFolder={collectionFolder}
      initialName={suggestedName(tab.text)}
      onClose={() => setAsking(null)}
      onSave={async (place: SavePlace, name: string) => {
        // The tab as it is now: typing may have gone on while the dialog was open.
        const current = services.tabs.get(tab.id) ?? tab;
        done(tab.id, await saveInto(deps, current, place, name));
        setAsking(null);
      }}
    />
  );
}
