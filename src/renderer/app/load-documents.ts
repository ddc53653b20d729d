/**
 * Reads the user's stored documents (editor tabs, saved collections) before the window draws, from
 * IndexedDB in a browser or SQLite in the desktop app, moving over what an older version kept in
 * localStorage. If they cannot be read, the console still starts, says so, and keeps nothing for
 * this session: writing fresh tabs over stored ones it could not read would lose them.
 */
import type { JqlBridge } from '../../shared/bridge.ts';
import { loadSavedQueries, type SavedQueriesState } from '../features/saved-queries/index.ts';
import { BridgeDocumentStorage } from '../state/bridge-document-storage.ts';
import { MemoryDocumentStorage, storageErrorMessage, type DocumentStorage } from '../state/document-storage.ts';
import type { KeyValueStorage } from '../state/external-store.ts';
import { IdbDocumentStorage } from '../state/idb-document-storage.ts';
import { loadTabs, type SavedTabs } from '../state/tabs-persistence.ts';

export interface LoadedDocuments {
  storage: DocumentStorage;
  tabs: SavedTabs | null;
  saved: SavedQueriesState | null;
  savedMigrated: boolean;
  /** Sentences for the user about what could not be read. */
  problems: string[];
}

export function documentStorageFor(bridge: JqlBridge | undefined, factory: IDBFactory | undefined): DocumentStorage {
  if (bridge) return new BridgeDocumentStorage(bridge);
  return factory ? new IdbDocumentStorage(factory) : new MemoryDocumentStorage();
}

export async function loadDocuments(storage: DocumentStorage, legacy: KeyValueStorage | null): Promise<LoadedDocuments> {
  try {
    const tabs = await loadTabs(storage, legacy);
    const saved = await loadSavedQueries(storage, legacy);
    const problems = [...tabs.problems];
    if (storage instanceof MemoryDocumentStorage) problems.push('This browser offers no IndexedDB here: tabs and saved queries last only until the page closes.');
    return { storage, tabs: tabs.saved, saved: saved.saved, savedMigrated: saved.migrated, problems };
  } catch (err) {
    return {
      storage: new MemoryDocumentStorage(),
      tabs: null,
      saved: null,
      savedMigrated: false,
      problems: [`The stored tabs and saved queries could not be read (${storageErrorMessage(err)}): this window starts without them and keeps nothing until it is reloaded.`],
    };
  }
}
