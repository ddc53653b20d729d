/**
 * Which view of the workbench is showing (Query, Upload, Streams, History, Saved, Diff, Docs), which
 * views have been opened (they stay mounted, so a half-filled upload form or a diff survives
 * switching), the connection each connection-bound view works on, the collection folder that is open
 * (the Saved view shows it, Ctrl/Cmd+S saves into it) and the place the Docs view shows.
 * Kept in localStorage (UI state only).
 */
import type { DocPlace } from '../components/doc-anchors.ts';
import { ExternalStore, readJson, writeJson, type KeyValueStorage } from './external-store.ts';

export const WORKBENCH_VIEWS = ['query', 'upload', 'streams', 'history', 'saved', 'diff', 'docs'] as const;
export type WorkbenchView = (typeof WORKBENCH_VIEWS)[number];

/** Views that work on one connection of their own; the others follow the active editor tab's. */
export const CONNECTION_VIEWS: readonly WorkbenchView[] = ['upload', 'streams', 'saved'];

export interface WorkbenchState {
  view: WorkbenchView;
  visited: readonly WorkbenchView[];
  /** View -> connection id, for the views in CONNECTION_VIEWS. */
  connections: Readonly<Partial<Record<WorkbenchView, string>>>;
  /** The id of the collection folder picked in the Saved view; null: the first one served. */
  collectionFolder: string | null;
  /** What the Docs view shows; `seq` grows with each request, so asking for the same place again scrolls again. */
  docs: DocPlace & { seq: number };
}

const STORAGE_KEY = 'jql.workbench.v1';
const isView = (v: unknown): v is WorkbenchView => typeof v === 'string' && (WORKBENCH_VIEWS as readonly string[]).includes(v);

export class WorkbenchStore extends ExternalStore<WorkbenchState> {
  private storage: KeyValueStorage;

  constructor(storage: KeyValueStorage) {
    const saved = readJson<Partial<WorkbenchState>>(storage, STORAGE_KEY);
    const view = isView(saved?.view) ? saved.view : 'query';
    const connections: Partial<Record<WorkbenchView, string>> = {};
    for (const [k, v] of Object.entries(saved?.connections ?? {})) if (isView(k) && typeof v === 'string') connections[k] = v;
    const collectionFolder = typeof saved?.collectionFolder === 'string' ? saved.collectionFolder : null;
    super({ view, visited: [view], connections, collectionFolder, docs: { doc: 'protocol', anchor: '', seq: 0 } });
    this.storage = storage;
  }

  show(view: WorkbenchView): void {
    const state = this.getSnapshot();
    if (state.view === view) return;
    this.commit({ ...state, view, visited: state.visited.includes(view) ? state.visited : [...state.visited, view] });
  }

  /** Shows a place of the docs (a hover's or an error's link). */
  openDocs(place: DocPlace): void {
    const state = this.getSnapshot();
    this.setState({ ...state, docs: { ...place, seq: state.docs.seq + 1 } });
    this.show('docs');
  }

  setConnection(view: WorkbenchView, connectionId: string): void {
    const state = this.getSnapshot();
    if (state.connections[view] === connectionId) return;
    this.commit({ ...state, connections: { ...state.connections, [view]: connectionId } });
  }

  openCollectionFolder(id: string): void {
    const state = this.getSnapshot();
    if (state.collectionFolder !== id) this.commit({ ...state, collectionFolder: id });
  }

  /** The connection a view works on: its own when it has one that still exists, else the tab's. */
  connectionOf(view: WorkbenchView, tabConnectionId: string, exists: (id: string) => boolean): string {
    const own = CONNECTION_VIEWS.includes(view) ? this.getSnapshot().connections[view] : undefined;
    return own && exists(own) ? own : tabConnectionId;
  }

  private commit(next: WorkbenchState): void {
    this.setState(next);
    writeJson(this.storage, STORAGE_KEY, { view: next.view, connections: next.connections, collectionFolder: next.collectionFolder });
  }
}
