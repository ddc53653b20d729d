// Controllers of the demo `objects` app (docs/workspace.md): `objects.Document` `upload` stores a file as a
// document of an object record. `files` names the part each intent receives (docs/protocol.md "Multipart uploads").

export class Document {
  static permissions = { upload: ['authenticated'] };
  static files = { upload: ['file'] };

  async on_upload(ctx, args) {
    const { object, name } = args;
    const file = ctx.files.get('file');
    if (!file) ctx.reject('Upload the document as the file part "file"', 'file');
    if (!Number.isInteger(object)) ctx.reject('object must be the integer id of an object', 'object');
    if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) ctx.reject('name must be a non-empty string when given', 'name');
    const found = await ctx.data.retrieve('objects.Object', { filter: { id: object }, limit: 1 }, { id: null });
    if (found.length === 0) ctx.reject(`No object with id ${object}`, 'object');
    const documentName = (name ?? file.name).slice(0, 200);
    const document = await ctx.data.create(
      'objects.Document',
      { object, name: documentName },
      { sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: 'file' } } },
    );
    return { payload: document, message: `Uploaded "${documentName}" to object ${object}` };
  }
}
