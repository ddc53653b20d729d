/**
 * Ctrl/Cmd+S in the Query view: the tab's document goes into a collection. The first time the person
 * says where (a collection folder the embedded server serves, as a request file, or one of the
 * console's own saved collections, as a saved query); after that, or when the tab was opened from
 * one of those, it goes back there without asking. A request file keeps everything else it holds
 * (description, assertions, captures, tags, other options): only the document and the diagnostics
 * level are the tab's. Framework-free; SaveToCollection.tsx is the keyboard and the dialog.
 */
import { REQUEST_SUFFIX, requestFileName, serializeRequestFile, type RequestFile } from '../../shared/collections/format.ts';
import type { FolderSnapshot, FoldersClient } from '../features/collection-folders/index.ts';
import type { SavedQueriesStore } from '../features/saved-queries/index.ts';
import { tabTitle, type QueryInfoLevel, type QueryTab, type SaveTarget } from '../state/tabs-store.ts';

export interface SaveDeps {
  folders: Pick<FoldersClient, 'list' | 'read' | 'writeRequest'>;
  saved: Pick<SavedQueriesStore, 'collection' | 'createCollection' | 'saveQuery' | 'updateQuery' | 'whenSaved'>;
}

/** What was written: where Ctrl/Cmd+S goes from now on, a phrase for the toast, and a folder's new state. */
export interface SaveOutcome {
  target: SaveTarget;
  where: string;
  snapshot?: FolderSnapshot;
}

/** Where the person chose to save, the first time. */
export type SavePlace = { kind: 'folder'; folderId: string } | { kind: 'saved'; collectionId: string } | { kind: 'new-collection'; collectionName: string };

/** The request file for a document: `existing`'s other parts kept, the tab's level in its options. */
export function requestText(document: string, level: QueryInfoLevel, existing: RequestFile | null): string {
  const options = { ...(existing?.options ?? {}), queryInfoLevel: level === 0 ? undefined : level };
  return serializeRequestFile({
    ...(existing?.description ? { description: existing.description } : {}),
    document,
    options,
    assertions: existing?.assertions ?? [],
    captures: existing?.captures ?? [],
    tags: existing?.tags ?? [],
    // A request's snapshot settings stay with it, as its assertions do.
    ...(existing?.snapshot ? { snapshot: existing.snapshot } : {}),
  });
}

/** The name the dialog offers: the tab's title ("Ticket · retrieve" -> "Ticket retrieve"). */
export function suggestedName(text: string): string {
  return tabTitle(text).replace(/ · /g, ' ');
}

/** The request file a name becomes in a folder: `errors/Sign in` -> `errors/Sign in.jql.json`. */
export function requestPath(name: string): string {
  const parts = name
    .split('/')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part !== '.' && part !== '..');
  const file = requestFileName(parts.pop() ?? '');
  // Folder names are cleaned as file names are (requestFileName), without the suffix.
  const folders = parts.map((part) => requestFileName(part).slice(0, -REQUEST_SUFFIX.length));
  return [...folders, file].join('/');
}

/** Writes the tab where it was saved before; null when that place is gone (or there is none): ask. */
export async function saveAgain(deps: SaveDeps, tab: QueryTab): Promise<SaveOutcome | null> {
  const target = tab.savedAs;
  if (!target) return null;
  if (target.kind === 'saved') {
    const collection = deps.saved.collection(target.collectionId);
    const query = collection?.queries.find((q) => q.id === target.queryId);
    if (!collection || !query) return null;
    deps.saved.updateQuery(collection.id, query.id, { document: tab.text });
    await deps.saved.whenSaved();
    return { target, where: `“${query.name}” in ${collection.name}` };
  }
  let folder: FolderSnapshot;
  try {
    folder = await deps.folders.read(target.folderId);
  } catch (error) {
    // A folder no longer served (moved, another folder opened) is asked about; a failure is told.
    const served = await deps.folders.list().catch(() => null);
    if (served && !served.some((f) => f.id === target.folderId)) return null;
    throw error;
  }
  const existing = folder.requests.find((r) => r.path === target.path);
  if (!existing) return null;
  const snapshot = await deps.folders.writeRequest(target.folderId, target.path, requestText(tab.text, tab.queryInfoLevel, existing.file));
  return { target, where: `${target.path} in ${snapshot.name}`, snapshot };
}

/** Saves the tab into the place and under the name the person chose. */
export async function saveInto(deps: SaveDeps, tab: QueryTab, place: SavePlace, name: string): Promise<SaveOutcome> {
  if (place.kind === 'folder') {
    const path = requestPath(name);
    // A file of that name is replaced (the dialog said so), keeping its assertions and the rest.
    const current = await deps.folders.read(place.folderId);
    const existing = current.requests.find((r) => r.path === path)?.file ?? null;
    const snapshot = await deps.folders.writeRequest(place.folderId, path, requestText(tab.text, tab.queryInfoLevel, existing));
    return { target: { kind: 'folder', folderId: place.folderId, path }, where: `${path} in ${snapshot.name}`, snapshot };
  }
  const collectionId = place.kind === 'saved' ? place.collectionId : deps.saved.createCollection(place.collectionName);
  const queryId = deps.saved.saveQuery(collectionId, { name, document: tab.text });
  await deps.saved.whenSaved();
  return { target: { kind: 'saved', collectionId, queryId }, where: `“${name.trim()}” in ${deps.saved.collection(collectionId)?.name ?? 'the collection'}` };
}
