// Controllers of the demo `filemanager` app (docs/workspace.md): `filemanager.File` `appendFiles` stores
// every file part of the request as a `filemanager.File`, whatever the parts are called ("*" in
// `files`: any number of parts, docs/protocol.md "Multipart uploads").

export class File {
  static permissions = { appendFiles: ['authenticated'] };
  static files = { appendFiles: ['*'] };

  async on_append_files(ctx) {
    if (ctx.files.size === 0) ctx.reject('Attach at least one file part', 'files');
    // The controller runs in one transaction: either every file is appended or none is.
    const created = [];
    for (const [part, file] of ctx.files) {
      created.push(
        await ctx.data.create(
          'filemanager.File',
          { name: file.name.slice(0, 255), size: file.size },
          { sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: part } } },
        ),
      );
    }
    return { payload: created, message: `Appended ${created.length} file${created.length === 1 ? '' : 's'}` };
  }
}
