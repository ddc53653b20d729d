/**
 * "Save to a collection", asked the first time a tab is saved: which collection (a folder the
 * embedded server serves, one of the console's own collections, or a new one of those) and under
 * which name. It says which file a name becomes and when that replaces one.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type JSX } from 'react';
import { Dialog } from '../components/Dialog.tsx';
import { NoFoldersError, type FoldersClient } from '../features/collection-folders/index.ts';
import type { Collection } from '../features/saved-queries/index.ts';
import { folderKeys } from '../state/query-keys.ts';
import { requestPath, type SavePlace } from './save-tab.ts';

export interface SaveDialogProps {
  folders: FoldersClient;
  collections: readonly Collection[];
  /** The folder open in the Saved view, offered first. */
  openFolder: string | null;
  initialName: string;
  onSave(place: SavePlace, name: string): Promise<void>;
  onClose(): void;
}

const NEW = 'new';

export function SaveDialog(props: SaveDialogProps): JSX.Element {
  // The same query as the Saved view's list. A server that serves no folders leaves the console's own collections.
  const list = useQuery({ queryKey: folderKeys.list(), queryFn: () => props.folders.list(), retry: false });
  const folderList = list.data ?? [];
  const listError = list.error instanceof NoFoldersError ? null : list.error;
  const [chosen, setChosen] = useState<string | null>(null);
  const fallback = folderList.some((f) => f.id === props.openFolder)
    ? `folder:${props.openFolder}`
    : folderList[0]
      ? `folder:${folderList[0].id}`
      : props.collections[0]
        ? `saved:${props.collections[0].id}`
        : NEW;
  const place = chosen ?? fallback;
  const folderId = place.startsWith('folder:') ? place.slice('folder:'.length) : null;
  const folder = useQuery({ queryKey: folderKeys.folder(folderId ?? ''), queryFn: () => props.folders.read(folderId!), enabled: folderId !== null });
  const [name, setName] = useState(props.initialName);
  const [collectionName, setCollectionName] = useState('My queries');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const path = requestPath(name);
  const replaces = folderId !== null && (folder.data?.requests.some((r) => r.path === path) ?? false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() === '') return setError('The query needs a name.');
    const target: SavePlace = folderId !== null ? { kind: 'folder', folderId } : place === NEW ? { kind: 'new-collection', collectionName } : { kind: 'saved', collectionId: place.slice('saved:'.length) };
    setSaving(true);
    setError(null);
    try {
      await props.onSave(target, name);
    } catch (err) {
      setError(`Not saved: ${(err as Error).message}`);
      setSaving(false);
    }
  };

  return (
    <Dialog title="Save to a collection" onClose={props.onClose} testId="save-dialog">
      <form className="form" onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span>Save into</span>
          <select aria-label="Save into" value={place} onChange={(e) => setChosen(e.target.value)}>
            {folderList.length > 0 && (
              <optgroup label="Collection folders">
                {folderList.map((f) => (
                  <option key={f.id} value={`folder:${f.id}`}>
                    {f.name} ({f.id})
                  </option>
                ))}
              </optgroup>
            )}
            {props.collections.length > 0 && (
              <optgroup label="Saved in this console">
                {props.collections.map((c) => (
                  <option key={c.id} value={`saved:${c.id}`}>
                    {c.name}
                  </option>
                ))}
              </optgroup>
            )}
            <option value={NEW}>A new collection in this console…</option>
          </select>
        </label>
        {place === NEW && (
          <label className="field">
            <span>Collection name</span>
            <input value={collectionName} onChange={(e) => setCollectionName(e.target.value)} aria-label="Collection name" />
          </label>
        )}
        <label className="field">
          <span>Name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} autoFocus spellCheck={false} aria-label="Query name" />
        </label>
        <p className="form-note" data-testid="save-path">
          {folderId !== null
            ? `${replaces ? 'Replaces' : 'Writes'} ${path}${replaces ? ' (its assertions and captures stay)' : ''}; “a/b” puts it in the folder a.`
            : 'Kept in this console’s storage; Export in the Saved view writes it to a file.'}
        </p>
        {listError && <p className="form-error">The collection folders could not be listed: {listError.message}</p>}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="form-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {replaces ? 'Replace' : 'Save'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
