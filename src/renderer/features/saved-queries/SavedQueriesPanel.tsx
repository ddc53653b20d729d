/**
 * Saved queries (issue 6): named collections, "save the current query", open or run a saved query
 * with the connection's `{{variables}}` filled in (undefined ones are named, with line and column),
 * the connection's environment, and import/export of collections as JSON files.
 */
import { useState, useSyncExternalStore, type ChangeEvent } from 'react';
import { exportFileName } from './collection-file.ts';
import { EnvironmentEditor } from './EnvironmentEditor.tsx';
import type { SavedQueriesStore } from './saved-queries-store.ts';
import type { Collection, EnvironmentVariable, SavedQuery } from './saved-types.ts';
import styles from './saved-queries.module.css';
import { findVariables } from '../../state/variables.ts';

export interface SavedQueriesPanelProps {
  store: SavedQueriesStore;
  /** The connection whose environment fills variables; null: running is disabled. */
  connection: { id: string; name: string } | null;
  /** The active editor tab's text, for "Save current query". */
  currentDocument?: string;
  /** Opens the saved document as written (variables and all) in an editor tab (whose Ctrl/Cmd+S saves it back). */
  onOpen: (query: SavedQuery, collection: Collection) => void;
  /** Runs the document with the connection's variables filled in. */
  onRun: (query: SavedQuery, document: string) => void;
  /** Saves an export (Electron: the save dialog); default: a browser download. */
  onExport?: (json: string, suggestedName: string) => void;
}

const NO_VARIABLES: EnvironmentVariable[] = [];

type Notice = { ok: boolean; text: string } | null;

function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function SavedQueriesPanel({ store, connection, currentDocument, onOpen, onRun, onExport }: SavedQueriesPanelProps) {
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const [newName, setNewName] = useState('');
  const [saveTo, setSaveTo] = useState('');
  const [saveName, setSaveName] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  const [runErrors, setRunErrors] = useState<Record<string, string[]>>({});
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const variables = connection ? (state.environments[connection.id] ?? NO_VARIABLES) : NO_VARIABLES;
  const defined = new Set(variables.map((v) => v.name));

  /** Runs a change; its confirmation shows only once the change is stored (else why it was not). */
  const attempt = (work: () => string | void) => {
    let text: string | void;
    try {
      text = work();
    } catch (err) {
      setNotice({ ok: false, text: (err as Error).message });
      return;
    }
    setNotice(text ? { ok: true, text: 'Saving…' } : null);
    store.whenSaved().then(
      () => setNotice(text ? { ok: true, text } : null),
      (err: Error) => setNotice({ ok: false, text: err.message }),
    );
  };
  const exportJson = (collections: Collection[] | null) => {
    const json = store.exportJson(collections ? collections.map((c) => c.id) : null);
    const name = exportFileName(collections ?? state.collections);
    if (onExport) onExport(json, name);
    else download(json, name);
  };
  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const result = store.importJson(await file.text());
    if (!result.ok) return setNotice({ ok: false, text: `${file.name} was not imported: ${result.errors.join('; ')}` });
    const text = `Imported ${result.imported.map((c) => `"${c.name}" (${c.queries} queries${c.renamedFrom ? `, renamed from "${c.renamedFrom}"` : ''})`).join(', ')}.`;
    store.whenSaved().then(
      () => setNotice({ ok: true, text }),
      (err: Error) => setNotice({ ok: false, text: `${file.name} was not imported: ${err.message}` }),
    );
  };
  const run = (query: SavedQuery) => {
    if (!connection) return;
    const resolved = store.resolve(query.document, connection.id);
    setRunErrors((e) => ({ ...e, [query.id]: resolved.ok ? [] : resolved.errors.map((x) => x.message) }));
    if (resolved.ok) onRun(query, resolved.text);
  };
  const rename = () =>
    attempt(() => {
      if (!renaming) return;
      store.renameCollection(renaming.id, renaming.name);
      setRenaming(null);
    });
  const target = saveTo || state.collections[0]?.id || '';

  return (
    <section className={styles.panel} aria-label="Saved queries">
      <div className={styles.row}>
        <form
          className={styles.row}
          onSubmit={(e) => {
            e.preventDefault();
            attempt(() => {
              store.createCollection(newName);
              setNewName('');
            });
          }}
        >
          <input className={styles.input} aria-label="New collection name" placeholder="New collection" value={newName} onChange={(e) => setNewName(e.target.value)} />
          <button type="submit" className={styles.button}>
            Create
          </button>
        </form>
        <label className={styles.button}>
          Import…
          <input type="file" accept="application/json,.json" hidden onChange={(e) => void importFile(e)} aria-label="Import collections" />
        </label>
        <button type="button" className={styles.button} disabled={state.collections.length === 0} onClick={() => exportJson(null)}>
          Export all
        </button>
      </div>
      {notice && <p className={notice.ok ? styles.ok : styles.error} role="status">{notice.text}</p>}

      {state.collections.length > 0 && (
        <form
          className={`${styles.box} ${styles.row}`}
          onSubmit={(e) => {
            e.preventDefault();
            attempt(() => {
              store.saveQuery(target, { name: saveName, document: currentDocument ?? '' });
              setSaveName('');
              return `Saved "${saveName.trim()}".`;
            });
          }}
        >
          <span className={styles.title}>Save current query</span>
          <input className={styles.input} aria-label="Saved query name" placeholder="name" value={saveName} onChange={(e) => setSaveName(e.target.value)} />
          <select className={styles.select} aria-label="Collection to save into" value={target} onChange={(e) => setSaveTo(e.target.value)}>
            {state.collections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <button type="submit" className={styles.button} disabled={!currentDocument}>
            Save
          </button>
        </form>
      )}

      {state.collections.length === 0 && <p className={styles.hint}>No collections yet: create one, or import a collections file.</p>}
      {state.collections.map((collection) => (
        <div key={collection.id} className={styles.box} data-collection={collection.name}>
          <div className={styles.summary}>
            {renaming?.id === collection.id ? (
              <>
                <input
                  className={styles.input}
                  aria-label="Collection name"
                  value={renaming.name}
                  autoFocus
                  onChange={(e) => setRenaming({ id: collection.id, name: e.target.value })}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      rename();
                    } else if (e.key === 'Escape') setRenaming(null);
                  }}
                />
                <button type="button" className={styles.button} onClick={rename}>
                  Save
                </button>
              </>
            ) : (
              <>
                <span className={styles.title}>{collection.name}</span>
                <span className={styles.hint}>{collection.queries.length} queries</span>
                {/* window.prompt does not exist in Electron: rename in place. */}
                <button type="button" className={styles.button} onClick={() => setRenaming({ id: collection.id, name: collection.name })}>
                  Rename
                </button>
              </>
            )}
            <button type="button" className={styles.button} onClick={() => exportJson([collection])}>
              Export
            </button>
            <button type="button" className={styles.button} onClick={() => (globalThis.confirm?.(`Delete "${collection.name}" and its queries?`) ?? true) && store.deleteCollection(collection.id)}>
              Delete
            </button>
          </div>
          <ul className={styles.queries}>
            {collection.queries.map((query) => {
              const names = [...new Set(findVariables(query.document).map((v) => v.name))];
              return (
                <li key={query.id} className={styles.query} data-query={query.name}>
                  <div className={styles.row}>
                    <strong>{query.name}</strong>
                    {names.map((n) => (
                      <span key={n} className={`${styles.variable} ${defined.has(n) ? '' : styles.missing}`} title={defined.has(n) ? 'defined for this connection' : 'not defined for this connection'}>
                        {`{{${n}}}`}
                      </span>
                    ))}
                    <span style={{ flex: 1 }} />
                    <button type="button" className={styles.button} onClick={() => onOpen(query, collection)}>
                      Open
                    </button>
                    <button type="button" className={styles.button} disabled={!connection} onClick={() => run(query)}>
                      Run
                    </button>
                    <button type="button" className={styles.button} aria-label={`Delete ${query.name}`} onClick={() => store.deleteQuery(collection.id, query.id)}>
                      Delete
                    </button>
                  </div>
                  {query.description && <span className={styles.hint}>{query.description}</span>}
                  {(runErrors[query.id] ?? []).map((m) => (
                    <p key={m} className={styles.error} role="alert">
                      {m}
                    </p>
                  ))}
                </li>
              );
            })}
          </ul>
        </div>
      ))}

      {connection ? <EnvironmentEditor store={store} connection={connection} variables={variables} /> : <p className={styles.hint}>Pick a connection to edit its variables.</p>}
    </section>
  );
}
