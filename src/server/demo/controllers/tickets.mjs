// Controllers of the demo `tickets` app (docs/workspace.md): `tickets.Document` `upload` stores a file as a
// document of a ticket. `files` names the part each intent receives (docs/protocol.md "Multipart uploads").

export class Document {
  static permissions = { upload: ['authenticated'] };
  static files = { upload: ['file'] };

  async on_upload(ctx, args) {
    const { ticket, title } = args;
    const file = ctx.files.get('file');
    if (!file) ctx.reject('Upload the document as the file part "file"', 'file');
    if (!Number.isInteger(ticket)) ctx.reject('ticket must be the integer id of a ticket', 'ticket');
    if (title !== undefined && (typeof title !== 'string' || title.trim() === '')) ctx.reject('title must be a non-empty string when given', 'title');
    // Read through the caller's permissions and row scope: a ticket the caller cannot see is "no ticket".
    const found = await ctx.data.retrieve('tickets.Ticket', { filter: { id: ticket }, limit: 1 }, { id: null });
    if (found.length === 0) ctx.reject(`No ticket with id ${ticket}`, 'ticket');
    const documentTitle = (title ?? file.name).slice(0, 200);
    const document = await ctx.data.create(
      'tickets.Document',
      { ticket, title: documentTitle },
      { sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: 'file' } } },
    );
    return { payload: document, message: `Uploaded "${documentTitle}" to ticket ${ticket}` };
  }
}
