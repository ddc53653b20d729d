/**
 * How the editor tabs are laid out in the document storage, and how they are read at start: the
 * list (`tabs`: ids in order and the active one) and one record per tab (`tab:<id>`). Tabs an older
 * version kept in localStorage are read once from there and moved over; the old copy is removed
 * only after the new one is stored.
 */
import type { DocumentStorage } from './document-storage.ts';
import { readJson, type KeyValueStorage } from './external-store.ts';
import type { QueryTab } from './tabs-store.ts';

export const TABS_INDEX_KEY = 'tabs';
export const LEGACY_TABS_KEY = 'jql.tabs.v1';
export const tabKey = (id: string): string => `tab:${id}`;

export interface SavedTabs {
  tabs: Array<Partial<QueryTab>>;
  activeId?: string;
  /** Read from the old localStorage copy: to be written to the storage. */
  migrated?: boolean;
}

export interface LoadedTabs {
  saved: SavedTabs | null;
  /** Sentences about what could not be read (a corrupt record is skipped, not fatal). */
  problems: string[];
}

function parse<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export async function loadTabs(storage: DocumentStorage, legacy: KeyValueStorage | null): Promise<LoadedTabs> {
  const index = parse<{ ids?: unknown; activeId?: unknown }>(await storage.get(TABS_INDEX_KEY));
  if (index && Array.isArray(index.ids)) {
    const problems: string[] = [];
    const tabs: Array<Partial<QueryTab>> = [];
    for (const id of index.ids.filter((i): i is string => typeof i === 'string')) {
      const tab = parse<Partial<QueryTab>>(await storage.get(tabKey(id)));
      if (tab) tabs.push(tab);
      else problems.push(`A stored tab (${id}) could not be read and was left out.`);
    }
    return { saved: { tabs, activeId: typeof index.activeId === 'string' ? index.activeId : undefined }, problems };
  }
  const old = legacy ? readJson<{ tabs?: Array<Partial<QueryTab>>; activeId?: string }>(legacy, LEGACY_TABS_KEY) : null;
  if (old && Array.isArray(old.tabs)) return { saved: { tabs: old.tabs, activeId: old.activeId, migrated: true }, problems: [] };
  return { saved: null, problems: [] };
}
