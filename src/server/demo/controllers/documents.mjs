// Controllers of the demo `documents` app (docs/workspace.md): `documents.Folder` `addDocument`,
// `createFolderWithDocuments` and the read-only `listDocuments`. Plain ESM, like any workspace's controllers module: each exported class
// is a controller, each `on_<intent>(ctx, args)` an intent, `permissions` its roles per intent, and
// `files` the file parts an intent receives from `PUT /jql` ("*": any number, docs/protocol.md "Multipart uploads"), and
// `readOnly` the intents that change nothing: a console runs those on a read-only connection, and
// treats every intent not listed as one that writes.

export class Folder {
  static permissions = { addDocument: ['authenticated'], createFolderWithDocuments: ['authenticated'], listDocuments: ['authenticated'] };
  static files = { createFolderWithDocuments: ['*'] };
  static readOnly = ['listDocuments'];

  /** The documents of one folder, by name; through `ctx.data`, so the caller's permissions apply. */
  async on_list_documents(ctx, args) {
    const { folder } = args;
    if (!Number.isInteger(folder)) ctx.reject('folder must be the integer id of a folder', 'folder');
    const found = await ctx.data.retrieve('documents.Folder', { filter: { id: folder }, limit: 1 }, { id: null, name: null });
    if (found.length === 0) ctx.reject(`No folder with id ${folder}`, 'folder');
    const documents = await ctx.data.retrieve('documents.Document', { filter: { folder }, ordering: ['name', 'id'], limit: 1000 }, { id: null, name: null });
    return { payload: documents, message: `${documents.length} documents in folder "${found[0].name}"` };
  }

  async on_add_document(ctx, args) {
    const { folder, name } = args;
    if (!Number.isInteger(folder)) ctx.reject('folder must be the integer id of a folder', 'folder');
    if (typeof name !== 'string' || name.trim() === '') ctx.reject('name must be a non-empty string', 'name');
    const found = await ctx.data.retrieve('documents.Folder', { filter: { id: folder }, limit: 1 }, { id: null });
    if (found.length === 0) ctx.reject(`No folder with id ${folder}`, 'folder');
    const document = await ctx.data.create('documents.Document', { folder, name });
    return { payload: document, message: `Added "${name}" to folder ${folder}` };
  }

  async on_create_folder_with_documents(ctx, args) {
    const { name, documents = [] } = args;
    if (typeof name !== 'string' || name.trim() === '') ctx.reject('name must be a non-empty string', 'name');
    if (!Array.isArray(documents) || documents.some((doc) => typeof doc !== 'string' || doc.trim() === '')) {
      ctx.reject('documents must be an array of document names', 'documents');
    }
    // One transaction: a folder is never left behind without the documents that were asked for.
    return ctx.transaction(async () => {
      const folder = await ctx.data.create('documents.Folder', { name });
      const created = [];
      for (const doc of documents) created.push(await ctx.data.create('documents.Document', { folder: folder.id, name: doc }));
      // Each uploaded file part becomes a document named after its file.
      for (const [part, file] of ctx.files) {
        created.push(
          await ctx.data.create(
            'documents.Document',
            { folder: folder.id, name: file.name.slice(0, 200) },
            { sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: part } } },
          ),
        );
      }
      return { payload: { ...folder, documents: created }, message: `Created folder "${name}" with ${created.length} documents` };
    });
  }
}
