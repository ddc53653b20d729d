/**
 * Collections of saved queries and the per-connection environments, kept in localStorage (they are
 * UI data, not secrets: a token belongs in the connection, not in a variable). Framework-free; the
 * panel reads it with useSyncExternalStore. Names are checked here so every caller gets the same
 * rules: non-empty, at most 200 characters, collection names unique (case-insensitive).
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import { ExternalStore, newId, readJson, writeJson, type KeyValueStorage } from '../../state/external-store.ts';
import { exportCollections, MAX_NAME, parseCollectionsFile } from './collection-file.ts';
import type { Collection, EnvironmentVariable, SavedQueriesState, SavedQuery } from './saved-types.ts';
import { isVariableName, parseVariableValue, substituteVariables, type Substitution } from './variables.ts';

export const STORAGE_KEY = 'jql.saved-queries.v1';

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

function sanitize(raw: Partial<SavedQueriesState> | null): SavedQueriesState {
  const collections = Array.isArray(raw?.collections)
    ? raw.collections.filter((c): c is Collection => typeof c?.id === 'string' && typeof c.name === 'string' && Array.isArray(c.queries))
    : [];
  for (const c of collections) c.queries = c.queries.filter((q) => typeof q?.id === 'string' && typeof q.name === 'string' && typeof q.document === 'string');
  const environments = typeof raw?.environments === 'object' && raw.environments !== null ? raw.environments : {};
  return { collections, environments };
}

export class SavedQueriesStore extends ExternalStore<SavedQueriesState> {
  private readonly storage: KeyValueStorage;
  private readonly now: () => number;

  constructor(storage: KeyValueStorage, now: () => number = Date.now) {
    super(sanitize(readJson<SavedQueriesState>(storage, STORAGE_KEY)));
    this.storage = storage;
    this.now = now;
  }

  collection(id: string): Collection | undefined {
    return this.getSnapshot().collections.find((c) => c.id === id);
  }

  createCollection(name: string): string {
    const clean = checkName(name, 'collection');
    this.checkUnique(clean, null);
    const at = this.now();
    const collection: Collection = { id: newId('col'), name: clean, queries: [], createdAt: at, updatedAt: at };
    this.commit({ ...this.getSnapshot(), collections: [...this.getSnapshot().collections, collection] });
    return collection.id;
  }

  renameCollection(id: string, name: string): void {
    const clean = checkName(name, 'collection');
    this.checkUnique(clean, id);
    this.updateCollection(id, (c) => ({ ...c, name: clean }));
  }

  deleteCollection(id: string): void {
    this.commit({ ...this.getSnapshot(), collections: this.getSnapshot().collections.filter((c) => c.id !== id) });
  }

  saveQuery(collectionId: string, input: { name: string; document: string; description?: string }): string {
    const name = checkName(input.name, 'query');
    const at = this.now();
    const query: SavedQuery = { id: newId('q'), name, document: input.document, description: input.description ?? '', createdAt: at, updatedAt: at };
    this.updateCollection(collectionId, (c) => ({ ...c, queries: [...c.queries, query] }));
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
    });
  }

  deleteQuery(collectionId: string, queryId: string): void {
    this.updateCollection(collectionId, (c) => ({ ...c, queries: c.queries.filter((q) => q.id !== queryId) }));
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
    });
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
    this.commit({ ...this.getSnapshot(), environments });
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
    this.commit({ ...this.getSnapshot(), collections });
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

  private updateCollection(id: string, change: (c: Collection) => Collection): void {
    const current = this.collection(id);
    if (!current) throw new SavedQueriesError('That collection no longer exists.');
    const next = { ...change(current), updatedAt: this.now() };
    this.commit({ ...this.getSnapshot(), collections: this.getSnapshot().collections.map((c) => (c.id === id ? next : c)) });
  }

  private commit(state: SavedQueriesState): void {
    this.setState(state);
    writeJson(this.storage, STORAGE_KEY, state);
  }
}
