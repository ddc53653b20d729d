import { describe, expect, it } from 'vitest';
import { parseRequestFile, type RequestFile } from '../../shared/collections/format.ts';
import type { FolderSnapshot } from '../features/collection-folders/index.ts';
import { SavedQueriesStore } from '../features/saved-queries/index.ts';
import type { QueryTab } from '../state/tabs-store.ts';
import { requestPath, saveAgain, saveInto, suggestedName, type SaveDeps } from './save-tab.ts';

/** A folder as the server keeps it: what is written is read back as the runner would read it. */
function fakeFolders(files: Record<string, RequestFile> = {}) {
  const written: Array<{ path: string; text: string }> = [];
  const snapshot = (): FolderSnapshot => ({
    id: 'demo',
    name: 'Demo helpdesk',
    version: String(written.length),
    defaultEnvironment: null,
    environments: [],
    requests: Object.entries(files).map(([path, file]) => ({ path, name: path, file })),
    problems: [],
  });
  const folders: SaveDeps['folders'] = {
    async list() {
      return [{ id: 'demo', name: 'Demo helpdesk' }];
    },
    async read(id) {
      if (id !== 'demo') throw new Error(`No collection "${id}"`);
      return snapshot();
    },
    async writeRequest(_id, path, text) {
      const parsed = parseRequestFile(text, path);
      if (!parsed.ok) throw new Error(parsed.errors.join('; '));
      files[path] = parsed.value;
      written.push({ path, text });
      return snapshot();
    },
  };
  return { folders, files, written };
}

const tab = (text: string, extra: Partial<QueryTab> = {}): QueryTab => ({ id: 't1', connectionId: 'local', text, queryInfoLevel: 0, lastRun: null, savedAs: null, ...extra });
const DOC = '{\n  "__meta__": {\n    "namespace": "tickets.Ticket",\n    "intent": "retrieve"\n  }\n}';

describe('saving a tab into a collection (Ctrl/Cmd+S)', () => {
  it('asks where the first time: a tab never saved has no place to go back to', async () => {
    const { folders } = fakeFolders();
    expect(await saveAgain({ folders, saved: new SavedQueriesStore() }, tab(DOC))).toBeNull();
  });

  it('writes a new request file into the chosen folder, with the tab’s diagnostics level, then goes back there', async () => {
    const { folders, files, written } = fakeFolders();
    const deps = { folders, saved: new SavedQueriesStore() };
    const first = await saveInto(deps, tab(DOC, { queryInfoLevel: 2 }), { kind: 'folder', folderId: 'demo' }, 'errors/Open tickets');
    expect(first.target).toEqual({ kind: 'folder', folderId: 'demo', path: 'errors/Open tickets.jql.json' });
    expect(first.where).toBe('errors/Open tickets.jql.json in Demo helpdesk');
    expect(files['errors/Open tickets.jql.json']).toMatchObject({ document: DOC, options: { queryInfoLevel: 2 } });

    const edited = DOC.replace('retrieve', 'count');
    const again = await saveAgain(deps, tab(edited, { savedAs: first.target }));
    expect(again?.target).toEqual(first.target);
    expect(written).toHaveLength(2);
    expect(files['errors/Open tickets.jql.json']!.document).toBe(edited);
  });

  it('keeps what the request file holds besides its document (assertions, captures, tags, description, options)', async () => {
    const file: RequestFile = {
      description: 'The open tickets',
      document: DOC,
      options: { bearer: '{{adminToken}}', queryInfoLevel: 1 },
      assertions: [{ target: 'status', op: 'eq', value: 200 }],
      captures: [{ variable: 'firstId', path: '$.__payload__[0].id' }],
      tags: ['smoke'],
    };
    const { folders, files } = fakeFolders({ '01-open.jql.json': file });
    const edited = DOC.replace('retrieve', 'count');
    await saveAgain({ folders, saved: new SavedQueriesStore() }, tab(edited, { savedAs: { kind: 'folder', folderId: 'demo', path: '01-open.jql.json' } }));
    // The tab's level (0) leaves the file's options but its own.
    expect(files['01-open.jql.json']).toEqual({ ...file, document: edited, options: { bearer: '{{adminToken}}' } });
  });

  it('asks again when the file or the folder it was saved to is gone', async () => {
    const { folders } = fakeFolders();
    const deps = { folders, saved: new SavedQueriesStore() };
    expect(await saveAgain(deps, tab(DOC, { savedAs: { kind: 'folder', folderId: 'demo', path: 'deleted.jql.json' } }))).toBeNull();
    expect(await saveAgain(deps, tab(DOC, { savedAs: { kind: 'folder', folderId: 'moved', path: 'x.jql.json' } }))).toBeNull();
  });

  it('tells a failure to read a folder that is still served, rather than asking where', async () => {
    const { folders } = fakeFolders();
    const failing = { ...folders, read: async () => Promise.reject(new Error('The server answered 500.')) };
    await expect(saveAgain({ folders: failing, saved: new SavedQueriesStore() }, tab(DOC, { savedAs: { kind: 'folder', folderId: 'demo', path: 'x.jql.json' } }))).rejects.toThrow('500');
  });

  it('saves into the console’s own collections when that is the place chosen, a new one included', async () => {
    const { folders } = fakeFolders();
    const saved = new SavedQueriesStore();
    const deps = { folders, saved };
    const first = await saveInto(deps, tab(DOC), { kind: 'new-collection', collectionName: 'Mine' }, 'Open tickets');
    expect(first.where).toBe('“Open tickets” in Mine');
    const collection = saved.getSnapshot().collections[0]!;
    expect(first.target).toEqual({ kind: 'saved', collectionId: collection.id, queryId: collection.queries[0]!.id });
    await saveAgain(deps, tab('{"changed": true}', { savedAs: first.target }));
    expect(saved.getSnapshot().collections[0]!.queries).toMatchObject([{ name: 'Open tickets', document: '{"changed": true}' }]);
    saved.deleteQuery(collection.id, collection.queries[0]!.id);
    expect(await saveAgain(deps, tab(DOC, { savedAs: first.target }))).toBeNull();
  });

  it('offers the tab’s title as the name, and makes a safe file path of any name', () => {
    expect(suggestedName(DOC)).toBe('Ticket retrieve');
    expect(requestPath('  errors / Sign in: viewer ')).toBe('errors/Sign in- viewer.jql.json');
    expect(requestPath('../../etc/passwd')).toBe('etc/passwd.jql.json');
    expect(requestPath('')).toBe('request.jql.json');
  });
});
