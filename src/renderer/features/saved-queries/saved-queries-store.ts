/**
 * Collections of saved queries and the per-connection environments (not secrets: a token belongs in
 * the connection, not in a variable), kept in the document storage (IndexedDB in a browser, SQLite
 * in the desktop app). Each change is written at once; `whenSaved()` tells whether it was stored.
 * A change that cannot be stored is taken back, so the panel never shows as saved what a reload
 * would lose, and it is reported in one sentence naming what was not saved. Framework-free; the
 * panel reads it with useSyncExternalStore. Names are checked here so every caller gets the same
 * rules: non-empty, at most 200 characters, collection names unique (case-insensitive).
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import { MemoryDocumentStorage, storageErrorMessage, type DocumentStorage } from '../../state/document-storage.ts';
import { DocumentWriter } from '../../state/document-writer.ts';
import { ExternalStore, newId, readJson, type KeyValueStorage } from '../../state/external-store.ts';
import { exportCollections, MAX_NAME, parseCollectionsFile } from './collection-file.ts';
import type { Collection, EnvironmentVariable, SavedQueriesState, SavedQuery } from './saved-types.ts';
import { isVariableName, parseVariableValue, substituteVariables, type Substitution } from '../../state/variables.ts';

/** The document that holds them all. */
export const SAVED_QUERIES_KEY = 'saved-queries';
/** Where an older version kept them (localStorage): read once and moved over. */
export const LEGACY_STORAGE_KEY = 'jql.saved-queries.v1';

export interface SavedQueriesOptions {
  storage?: DocumentStorage;
  now?: () => number;
  /** A change could not be stored: one sentence naming it and why. */
  onSaveError?: (message: string) => void;
}

/** Reads the stored collections, or an older version's copy in localStorage (then `migrated`). */
export async function loadSavedQueries(storage: DocumentStorage, legacy: KeyValueStorage | null): Promise<{ saved: SavedQueriesState | null; migrated: boolean }> {
  const text = await storage.get(SAVED_QUERIES_KEY);
  if (text !== null) {
    try {
      return { saved: sanitize(JSON.parse(text) as Partial<SavedQueriesState>), migrated: false };
    } catch {
      return { saved: null, migrated: false };
    }
  }
  const old = legacy ? readJson<SavedQueriesState>(legacy, LEGACY_STORAGE_KEY) : null;
  return old ? { saved: sanitize(old), migrated: true } : { saved: null, migrated: false };
}

export class SavedQueriesError extends Error {
  override readonly name = 'SavedQueriesError';
}

export type ImportResult = { ok: true; imported: Array<{ name: string; queries: number; renamedFrom: string | null }> } | { ok: false; errors: string[] };

function checkName(name: string, what: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new SavedQueriesError(`The ${what} needs a name.`);
  if (trimmed.length > MAX_NAME) throw new SavedQueriesError(`The ${what}'s name is longer than ${MAX_NAME} characters.`);
  return trimmed;
}

export function sanitize(raw: Partial<SavedQueriesState> | null): SavedQueriesState {
  const collections = Array.isArray(raw?.collections)
    ? raw.collections.filter((c): c is Collection => typeof c?.id === 'string' && typeof c.name === 'string' && Array.isArray(c.queries))
    : [];
  for (const c of collections) c.queries = c.queries.filter((q) => typeof q?.id === 'string' && typeof q.name === 'string' && typeof q.document === 'string');
  const environments = typeof raw?.environments === 'object' && raw.environments !== null ? raw.environments : {};
  return { collections, environments };
}

export class SavedQueriesStore extends ExternalStore<SavedQueriesState> {
  private readonly writer: DocumentWriter;
  private readonly now: () => number;
  private readonly onSaveError: (message: string) => void;
  /** The state last known to be stored: a change that fails goes back to it. */
  private persisted: SavedQueriesState;
  private lastWrite: Promise<void> = Promise.resolve();

  constructor(saved: Partial<SavedQueriesState> | null = null, options: SavedQueriesOptions = {}) {
    const state = sanitize(saved);
    super(state);
    this.persisted = state;
    this.writer = new DocumentWriter(options.storage ?? new MemoryDocumentStorage());
    this.now = options.now ?? Date.now;
    this.onSaveError = options.onSaveError ?? (() => {});
  }

  /** Resolves once the latest change is stored; rejects with a SavedQueriesError saying what was not. */
  whenSaved(): Promise<void> {
    return this.lastWrite;
  }

  /** Writes the whole state now (after moving an older version's copy over). */
  saveAll(): Promise<void> {
    this.commit(this.getSnapshot(), 'the saved collections');
    return this.lastWrite;
  }

  collection(id: string): Collection | undefined {
    return this.getSnapshot().collections.find((c) => c.id === id);
  }

  createCollection(name: string): string {
    const clean = checkName(name, 'collection');
    this.checkUnique(clean, null);
    const at = this.now();
    const collection: Collection = { id: newId('col'), name: clean, queries: [], createdAt: at, updatedAt: at };
    this.commit({ ...this.getSnapshot(), collections: [...this.getSnapshot().collections, collection] }, `the collection "${clean}"`);
    return collection.id;
  }

  renameCollection(id: string, name: string): void {
    const clean = checkName(name, 'collection');
    this.checkUnique(clean, id);
    this.updateCollection(id, (c) => ({ ...c, name: clean }), `the new name "${clean}"`);
  }

  deleteCollection(id: string): void {
    this.commit({ ...this.getSnapshot(), collections: this.getSnapshot().collections.filter((c) => c.id !== id) }, `the deletion of "${this.collection(id)?.name ?? id}"`);
  }

  saveQuery(collectionId: string, input: { name: string; document: string; description?: string }): string {
    const name = checkName(input.name, 'query');
    const at = this.now();
    const query: SavedQuery = { id: newId('q'), name, document: input.document, description: input.description ?? '', createdAt: at, updatedAt: at };
    this.updateCollection(collectionId, (c) => ({ ...c, queries: [...c.queries, query] }), `the query "${name}"`);
    return query.id;
  }

  updateQuery(collectionId: string, queryId: string, patch: Partial<Pick<SavedQuery, 'name' | 'document' | 'description'>>): void {
    const name = patch.name === undefined ? undefined : checkName(patch.name, 'query');
    this.updateCollection(collectionId, (c) => {
      if (!c.queries.some((q) => q.id === queryId)) throw new SavedQueriesError('That saved query no longer exists.');
      return {
        ...c,
        queries: c.queries.map((q) => (q.id === queryId ? { ...q, ...patch, ...(name !== undefined ? { name } : {}), updatedAt: this.now() } : q)),
      };
    }, 'the change to the query');
  }

  deleteQuery(collectionId: string, queryId: string): void {
    this.updateCollection(collectionId, (c) => ({ ...c, queries: c.queries.filter((q) => q.id !== queryId) }), 'the deletion of the query');
  }

  moveQuery(fromId: string, queryId: string, toId: string): void {
    if (fromId === toId) return;
    const query = this.collection(fromId)?.queries.find((q) => q.id === queryId);
    if (!query || !this.collection(toId)) throw new SavedQueriesError('That saved query or collection no longer exists.');
    const at = this.now();
    this.commit({
      ...this.getSnapshot(),
      collections: this.getSnapshot().collections.map((c) =>
        c.id === fromId ? { ...c, queries: c.queries.filter((q) => q.id !== queryId), updatedAt: at } : c.id === toId ? { ...c, queries: [...c.queries, query], updatedAt: at } : c,
      ),
    }, `the move of "${query.name}"`);
  }

  environment(connectionId: string): EnvironmentVariable[] {
    return this.getSnapshot().environments[connectionId] ?? [];
  }

  /** Replaces a connection's variables; names must be valid and unique. */
  setEnvironment(connectionId: string, variables: EnvironmentVariable[]): void {
    const seen = new Set<string>();
    for (const v of variables) {
      const name = v.name.trim();
      if (!isVariableName(name)) throw new SavedQueriesError(`"${v.name}" is not a variable name: use letters, digits, _, . or -, starting with a letter or _.`);
      if (seen.has(name)) throw new SavedQueriesError(`The variable "${name}" is defined twice.`);
      seen.add(name);
    }
    const environments = { ...this.getSnapshot().environments, [connectionId]: variables.map((v) => ({ name: v.name.trim(), value: v.value })) };
    this.commit({ ...this.getSnapshot(), environments }, 'the variables');
  }

  /** The connection's variables as values, for substitution. */
  variables(connectionId: string): Record<string, JsonValue> {
    const out: Record<string, JsonValue> = {};
    for (const v of this.environment(connectionId)) out[v.name] = parseVariableValue(v.value);
    return out;
  }

  /** The document with the connection's variables filled in, or the undefined ones. */
  resolve(document: string, connectionId: string): Substitution {
    return substituteVariables(document, this.variables(connectionId));
  }

  exportJson(collectionIds: readonly string[] | null = null): string {
    const all = this.getSnapshot().collections;
    return exportCollections(collectionIds ? all.filter((c) => collectionIds.includes(c.id)) : all, new Date(this.now()));
  }

  /** Adds the file's collections as new ones; a name already taken gets " (2)", " (3)", … */
  importJson(text: string): ImportResult {
    const parsed = parseCollectionsFile(text);
    if (!parsed.ok) return parsed;
    const at = this.now();
    const collections = [...this.getSnapshot().collections];
    const imported: Array<{ name: string; queries: number; renamedFrom: string | null }> = [];
    for (const c of parsed.collections) {
      const name = this.freeName(c.name, collections);
      collections.push({
        id: newId('col'),
        name,
        createdAt: at,
        updatedAt: at,
        queries: c.queries.map((q) => ({ id: newId('q'), name: q.name, document: q.document, description: q.description, createdAt: at, updatedAt: at })),
      });
      imported.push({ name, queries: c.queries.length, renamedFrom: name === c.name ? null : c.name });
    }
    this.commit({ ...this.getSnapshot(), collections }, `the imported collections`);
    return { ok: true, imported };
  }

  private freeName(name: string, collections: readonly Collection[]): string {
    const taken = new Set(collections.map((c) => c.name.toLowerCase()));
    if (!taken.has(name.toLowerCase())) return name;
    for (let n = 2; ; n++) {
      const candidate = `${name} (${n})`;
      if (!taken.has(candidate.toLowerCase())) return candidate;
    }
  }

  private checkUnique(name: string, exceptId: string | null): void {
    if (this.getSnapshot().collections.some((c) => c.id !== exceptId && c.name.toLowerCase() === name.toLowerCase())) {
      throw new SavedQueriesError(`There is already a collection named "${name}".`);
    }
  }

  private updateCollection(id: string, change: (c: Collection) => Collection, what: string): void {
    const current = this.collection(id);
    if (!current) throw new SavedQueriesError('That collection no longer exists.');
    const next = { ...change(current), updatedAt: this.now() };
    this.commit({ ...this.getSnapshot(), collections: this.getSnapshot().collections.map((c) => (c.id === id ? next : c)) }, what);
  }

  private commit(state: SavedQueriesState, what: string): void {
    this.setState(state);
    const write = this.writer.write([{ key: SAVED_QUERIES_KEY, value: JSON.stringify(state) }]);
    this.lastWrite = write.then(
      () => {
        this.persisted = state;
      },
      (err: unknown) => {
        const message = `Not saved: ${what} (${storageErrorMessage(err)}).`;
        // A newer change is on its way and carries this one; only the latest failure is taken back.
        if (this.getSnapshot() === state) {
          this.setState(this.persisted);
          this.onSaveError(message);
        }
        throw new SavedQueriesError(message);
      },
    );
    // Nobody may be waiting; the failure is reported through onSaveError.
    this.lastWrite.catch(() => undefined);
  }
}
