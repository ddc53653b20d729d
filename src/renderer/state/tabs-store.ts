/**
 * The editor tabs: each holds its own query text, connection and diagnostics level. They are kept
 * across restarts in the document storage (IndexedDB in a browser, SQLite in the desktop app), one
 * record per tab plus the list, so typing in one tab rewrites that tab only. A write that fails
 * marks the tab "not saved" and is reported once (tabs-persistence.ts says how); the text stays in
 * memory and in the editor, and the next change tries again. A tab keeps only a summary of its
 * last run: the response itself is never stored, so a huge one is never re-rendered on start.
 */
import { listKeys } from '../monaco/json-locate.ts';
import { DEFAULT_QUERY } from '../monaco/templates.ts';
import { MemoryDocumentStorage, storageErrorMessage, type DocumentChange, type DocumentStorage } from './document-storage.ts';
import { DocumentWriter } from './document-writer.ts';
import { ExternalStore, newId } from './external-store.ts';
import { TABS_INDEX_KEY, tabKey, type SavedTabs } from './tabs-persistence.ts';

export type QueryInfoLevel = 0 | 1 | 2;

export interface LastRunSummary {
  status: number;
  timeMs: number;
  size: number;
  at: number;
}

/**
 * Where Ctrl/Cmd+S writes a tab's document once it was saved (or opened from there): a request file
 * of a collection folder, or a query of the console's own saved collections.
 */
export type SaveTarget = { kind: 'folder'; folderId: string; path: string } | { kind: 'saved'; collectionId: string; queryId: string };

export interface QueryTab {
  id: string;
  connectionId: string;
  text: string;
  queryInfoLevel: QueryInfoLevel;
  lastRun: LastRunSummary | null;
  /** Null until the tab is saved into a collection (or opened from one). */
  savedAs: SaveTarget | null;
}

function sanitizeSaveTarget(raw: unknown): SaveTarget | null {
  const t = raw as Partial<Record<string, unknown>> | null | undefined;
  if (t?.kind === 'folder' && typeof t.folderId === 'string' && typeof t.path === 'string') return { kind: 'folder', folderId: t.folderId, path: t.path };
  if (t?.kind === 'saved' && typeof t.collectionId === 'string' && typeof t.queryId === 'string') return { kind: 'saved', collectionId: t.collectionId, queryId: t.queryId };
  return null;
}

export interface TabsState {
  tabs: QueryTab[];
  activeId: string;
  /** Tabs whose latest change is not stored yet ('pending') or could not be stored ('failed'). */
  unsaved: Readonly<Record<string, 'pending' | 'failed'>>;
}

export function sanitizeTab(tab: Partial<QueryTab> | null | undefined, fallbackConnection: string): QueryTab | null {
  if (!tab || typeof tab.id !== 'string' || typeof tab.text !== 'string') return null;
  return {
    id: tab.id,
    text: tab.text,
    connectionId: typeof tab.connectionId === 'string' ? tab.connectionId : fallbackConnection,
    queryInfoLevel: tab.queryInfoLevel === 1 || tab.queryInfoLevel === 2 ? tab.queryInfoLevel : 0,
    // Every number of the summary is drawn on start: one stored as anything else is dropped.
    lastRun: tab.lastRun && (['status', 'timeMs', 'size', 'at'] as const).every((k) => Number.isFinite(tab.lastRun?.[k])) ? tab.lastRun : null,
    savedAs: sanitizeSaveTarget(tab.savedAs),
  };
}

/** A short label for a tab from its text: "Ticket · retrieve", "multi-query (2)", or "Query". */
export function tabTitle(text: string): string {
  // The head of the document is enough to name it, and keeps this cheap on every keystroke.
  const keys = listKeys(text.slice(0, 20_000));
  const value = (path: string[]) => {
    const k = keys.find((e) => e.path.length === path.length && e.path.every((p, i) => p === path[i]));
    if (!k) return undefined;
    const raw = text.slice(k.valueStart, k.valueEnd);
    return raw.startsWith('"') ? raw.slice(1, -1) : undefined;
  };
  if (keys.some((k) => k.path.length === 1 && k.key === '__meta__')) {
    const ns = value(['__meta__', 'namespace']);
    const intent = value(['__meta__', 'intent']);
    if (ns && intent) return `${ns.split('.').pop()} · ${intent}`;
    return ns ?? 'Query';
  }
  const subqueries = keys.filter((k) => k.path.length === 2 && k.key === '__meta__').length;
  return subqueries > 0 ? `multi-query (${subqueries})` : 'Query';
}

export interface TabsStoreOptions {
  storage?: DocumentStorage;
  /** Typing writes at most this often. */
  saveDelayMs?: number;
  /** A tab could not be stored: one sentence naming it and why. */
  onSaveError?: (message: string) => void;
  /** Everything the store holds was written to the storage (e.g. to drop a migrated copy). */
  onAllSaved?: () => void;
}

export class TabsStore extends ExternalStore<TabsState> {
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly writer: DocumentWriter;
  private readonly saveDelayMs: number;
  private readonly onSaveError: (message: string) => void;
  private readonly onAllSaved: (() => void) | undefined;
  private readonly dirty = new Set<string>();
  private indexDirty = false;
  /** The last write failed (reported once until a write succeeds). */
  private failing = false;
  /** Bumped on each change of a tab, so an older write finishing does not mark a newer change saved. */
  private readonly versions = new Map<string, number>();

  constructor(saved: SavedTabs | null, defaultConnectionId: string, options: TabsStoreOptions = {}) {
    const tabs = (saved?.tabs ?? []).map((t) => sanitizeTab(t, defaultConnectionId)).filter((t): t is QueryTab => t !== null);
    const fresh = tabs.length === 0;
    if (fresh) tabs.push({ id: newId('tab'), connectionId: defaultConnectionId, text: DEFAULT_QUERY, queryInfoLevel: 0, lastRun: null, savedAs: null });
    const activeId = tabs.some((t) => t.id === saved?.activeId) ? saved!.activeId! : tabs[0]!.id;
    super({ tabs, activeId, unsaved: {} });
    this.writer = new DocumentWriter(options.storage ?? new MemoryDocumentStorage());
    this.saveDelayMs = options.saveDelayMs ?? 300;
    this.onSaveError = options.onSaveError ?? (() => {});
    this.onAllSaved = options.onAllSaved;
    // Tabs that came from elsewhere (an older version's localStorage) are written to the storage.
    if (saved?.migrated || fresh) for (const t of tabs) this.markDirty(t.id);
    if (saved?.migrated || fresh) this.indexDirty = true;
  }

  get active(): QueryTab {
    const { tabs, activeId } = this.getSnapshot();
    return tabs.find((t) => t.id === activeId) ?? tabs[0]!;
  }

  get(id: string): QueryTab | undefined {
    return this.getSnapshot().tabs.find((t) => t.id === id);
  }

  open(init: Partial<Pick<QueryTab, 'text' | 'connectionId' | 'queryInfoLevel' | 'savedAs'>> = {}): string {
    const base = this.active;
    const tab: QueryTab = {
      id: newId('tab'),
      connectionId: init.connectionId ?? base.connectionId,
      text: init.text ?? DEFAULT_QUERY,
      queryInfoLevel: init.queryInfoLevel ?? 0,
      lastRun: null,
      savedAs: init.savedAs ?? null,
    };
    const { tabs } = this.getSnapshot();
    const at = tabs.findIndex((t) => t.id === base.id) + 1;
    this.commit({ ...this.getSnapshot(), tabs: [...tabs.slice(0, at), tab, ...tabs.slice(at)], activeId: tab.id }, [tab.id], true);
    return tab.id;
  }

  /** Closing the last tab leaves a fresh one: there is always a tab to type in. */
  close(id: string): void {
    const { tabs, activeId } = this.getSnapshot();
    const index = tabs.findIndex((t) => t.id === id);
    if (index < 0) return;
    const rest = tabs.filter((t) => t.id !== id);
    if (rest.length === 0) {
      const fresh: QueryTab = { ...tabs[index]!, id: newId('tab'), text: DEFAULT_QUERY, lastRun: null, savedAs: null };
      this.commit({ ...this.getSnapshot(), tabs: [fresh], activeId: fresh.id }, [id, fresh.id], true);
      return;
    }
    const nextActive = activeId === id ? rest[Math.min(index, rest.length - 1)]!.id : activeId;
    this.commit({ ...this.getSnapshot(), tabs: rest, activeId: nextActive }, [id], true);
  }

  activate(id: string): void {
    if (this.get(id)) this.commit({ ...this.getSnapshot(), activeId: id }, [], true);
  }

  setText(id: string, text: string): void {
    this.update(id, { text }, false);
  }

  setConnection(id: string, connectionId: string): void {
    this.update(id, { connectionId }, true);
  }

  setQueryInfoLevel(id: string, level: QueryInfoLevel): void {
    this.update(id, { queryInfoLevel: level }, true);
  }

  /** Where Ctrl/Cmd+S writes this tab from now on. */
  setSavedAs(id: string, savedAs: SaveTarget | null): void {
    this.update(id, { savedAs }, true);
  }

  recordRun(id: string, lastRun: LastRunSummary): void {
    this.update(id, { lastRun }, true);
  }

  /** Tabs on a connection that was deleted move to the given one (the embedded server). */
  reassignConnection(fromId: string, toId: string): void {
    const state = this.getSnapshot();
    const moved = state.tabs.filter((t) => t.connectionId === fromId).map((t) => t.id);
    if (moved.length === 0) return;
    this.commit({ ...state, tabs: state.tabs.map((t) => (t.connectionId === fromId ? { ...t, connectionId: toId } : t)) }, moved, true);
  }

  /** Starts writing any pending change now (on page hide, before quit); resolves once written. */
  async flush(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    const ids = [...this.dirty];
    if (ids.length === 0 && !this.indexDirty) return this.writer.idle();
    const { tabs, activeId } = this.getSnapshot();
    const changes: DocumentChange[] = ids.map((id) => {
      const tab = tabs.find((t) => t.id === id);
      return { key: tabKey(id), value: tab ? JSON.stringify(tab) : null };
    });
    // The list goes in the same write as the tabs it names: both are stored, or neither.
    if (this.indexDirty) changes.push({ key: TABS_INDEX_KEY, value: JSON.stringify({ ids: tabs.map((t) => t.id), activeId }) });
    const versions = new Map(ids.map((id) => [id, this.versions.get(id) ?? 0]));
    this.dirty.clear();
    this.indexDirty = false;
    try {
      await this.writer.write(changes);
      this.settle(versions, null);
    } catch (err) {
      this.settle(versions, err);
    }
  }

  private settle(versions: Map<string, number>, err: unknown): void {
    const unsaved = { ...this.getSnapshot().unsaved };
    const newlyFailed: string[] = [];
    for (const [id, version] of versions) {
      if (!this.get(id)) {
        delete unsaved[id];
        continue;
      }
      if (err) {
        if (unsaved[id] !== 'failed') newlyFailed.push(id);
        unsaved[id] = 'failed';
        // Written again with the next change.
        this.dirty.add(id);
      } else if ((this.versions.get(id) ?? 0) === version) delete unsaved[id];
    }
    if (err) this.indexDirty = true;
    this.setState({ ...this.getSnapshot(), unsaved });
    if (err && newlyFailed.length > 0) {
      const names = newlyFailed.map((id) => `"${tabTitle(this.get(id)!.text)}"`).join(', ');
      this.onSaveError(
        `Not saved: the tab${newlyFailed.length > 1 ? 's' : ''} ${names} (${storageErrorMessage(err)}). The document stays in the editor; copy it somewhere safe before closing this window.`,
      );
    } else if (err && !this.failing) {
      this.onSaveError(`Not saved: the list of tabs (${storageErrorMessage(err)}).`);
    }
    this.failing = !!err;
    if (!err && Object.keys(unsaved).length === 0 && this.dirty.size === 0 && !this.indexDirty) this.onAllSaved?.();
  }

  private markDirty(id: string): void {
    this.dirty.add(id);
    this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
  }

  private update(id: string, patch: Partial<QueryTab>, saveNow: boolean): void {
    const state = this.getSnapshot();
    if (!state.tabs.some((t) => t.id === id)) return;
    this.commit({ ...state, tabs: state.tabs.map((t) => (t.id === id ? { ...t, ...patch } : t)) }, [id], saveNow, false);
  }

  private commit(next: TabsState, changed: readonly string[], saveNow: boolean, indexChanged = true): void {
    for (const id of changed) this.markDirty(id);
    if (indexChanged) this.indexDirty = true;
    const unsaved = { ...next.unsaved };
    for (const id of changed) if (unsaved[id] !== 'failed') unsaved[id] = 'pending';
    this.setState({ ...next, unsaved });
    if (saveNow) void this.flush();
    else if (!this.saveTimer) {
      // Typing changes the text on every key: write at most every saveDelayMs.
      this.saveTimer = setTimeout(() => void this.flush(), this.saveDelayMs);
    }
  }
}
