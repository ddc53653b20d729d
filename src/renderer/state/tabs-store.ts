/**
 * The editor tabs: each holds its own query text, connection and diagnostics level, and they are
 * kept across restarts in localStorage (non-secret UI state). A tab keeps only a summary of its
 * last run: the response itself is never stored, so a huge one is never re-rendered on start.
 */
import { listKeys } from '../monaco/json-locate.ts';
import { DEFAULT_QUERY } from '../monaco/templates.ts';
import { ExternalStore, newId, readJson, writeJson, type KeyValueStorage } from './external-store.ts';

const STORAGE_KEY = 'jql.tabs.v1';

export type QueryInfoLevel = 0 | 1 | 2;

export interface LastRunSummary {
  status: number;
  timeMs: number;
  size: number;
  at: number;
}

export interface QueryTab {
  id: string;
  connectionId: string;
  text: string;
  queryInfoLevel: QueryInfoLevel;
  lastRun: LastRunSummary | null;
}

export interface TabsState {
  tabs: QueryTab[];
  activeId: string;
}

function sanitize(tab: Partial<QueryTab>, fallbackConnection: string): QueryTab | null {
  if (typeof tab.id !== 'string' || typeof tab.text !== 'string') return null;
  return {
    id: tab.id,
    text: tab.text,
    connectionId: typeof tab.connectionId === 'string' ? tab.connectionId : fallbackConnection,
    queryInfoLevel: tab.queryInfoLevel === 1 || tab.queryInfoLevel === 2 ? tab.queryInfoLevel : 0,
    lastRun: tab.lastRun && typeof tab.lastRun.status === 'number' ? tab.lastRun : null,
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

export class TabsStore extends ExternalStore<TabsState> {
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private storage: KeyValueStorage;
  private saveDelayMs: number;

  constructor(storage: KeyValueStorage, defaultConnectionId: string, saveDelayMs = 300) {
    const saved = readJson<{ tabs?: Array<Partial<QueryTab>>; activeId?: string }>(storage, STORAGE_KEY);
    const tabs = (saved?.tabs ?? []).map((t) => sanitize(t, defaultConnectionId)).filter((t): t is QueryTab => t !== null);
    if (tabs.length === 0) tabs.push({ id: newId('tab'), connectionId: defaultConnectionId, text: DEFAULT_QUERY, queryInfoLevel: 0, lastRun: null });
    const activeId = tabs.some((t) => t.id === saved?.activeId) ? saved!.activeId! : tabs[0]!.id;
    super({ tabs, activeId });
    this.storage = storage;
    this.saveDelayMs = saveDelayMs;
  }

  get active(): QueryTab {
    const { tabs, activeId } = this.getSnapshot();
    return tabs.find((t) => t.id === activeId) ?? tabs[0]!;
  }

  get(id: string): QueryTab | undefined {
    return this.getSnapshot().tabs.find((t) => t.id === id);
  }

  open(init: Partial<Pick<QueryTab, 'text' | 'connectionId' | 'queryInfoLevel'>> = {}): string {
    const base = this.active;
    const tab: QueryTab = {
      id: newId('tab'),
      connectionId: init.connectionId ?? base.connectionId,
      text: init.text ?? DEFAULT_QUERY,
      queryInfoLevel: init.queryInfoLevel ?? 0,
      lastRun: null,
    };
    const { tabs } = this.getSnapshot();
    const at = tabs.findIndex((t) => t.id === base.id) + 1;
    this.commit({ tabs: [...tabs.slice(0, at), tab, ...tabs.slice(at)], activeId: tab.id }, true);
    return tab.id;
  }

  /** Closing the last tab leaves a fresh one: there is always a tab to type in. */
  close(id: string): void {
    const { tabs, activeId } = this.getSnapshot();
    const index = tabs.findIndex((t) => t.id === id);
    if (index < 0) return;
    const rest = tabs.filter((t) => t.id !== id);
    if (rest.length === 0) {
      const fresh: QueryTab = { ...tabs[index]!, id: newId('tab'), text: DEFAULT_QUERY, lastRun: null };
      this.commit({ tabs: [fresh], activeId: fresh.id }, true);
      return;
    }
    const nextActive = activeId === id ? rest[Math.min(index, rest.length - 1)]!.id : activeId;
    this.commit({ tabs: rest, activeId: nextActive }, true);
  }

  activate(id: string): void {
    if (this.get(id)) this.commit({ ...this.getSnapshot(), activeId: id }, true);
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

  recordRun(id: string, lastRun: LastRunSummary): void {
    this.update(id, { lastRun }, true);
  }

  /** Tabs on a connection that was deleted move to the given one (the embedded server). */
  reassignConnection(fromId: string, toId: string): void {
    const state = this.getSnapshot();
    if (!state.tabs.some((t) => t.connectionId === fromId)) return;
    this.commit({ ...state, tabs: state.tabs.map((t) => (t.connectionId === fromId ? { ...t, connectionId: toId } : t)) }, true);
  }

  /** Writes any pending change now (on page hide / before quit). */
  flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    writeJson(this.storage, STORAGE_KEY, this.getSnapshot());
  }

  private update(id: string, patch: Partial<QueryTab>, saveNow: boolean): void {
    const state = this.getSnapshot();
    this.commit({ ...state, tabs: state.tabs.map((t) => (t.id === id ? { ...t, ...patch } : t)) }, saveNow);
  }

  private commit(next: TabsState, saveNow: boolean): void {
    this.setState(next);
    if (saveNow) this.flush();
    else {
      // Typing changes the text on every key: write at most every saveDelayMs.
      if (this.saveTimer) return;
      this.saveTimer = setTimeout(() => this.flush(), this.saveDelayMs);
    }
  }
}
