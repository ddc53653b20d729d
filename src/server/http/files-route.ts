/**
 * GET {base}/jql/files/:id (docs/protocol.md "File URLs"): a stored file's bytes, to a caller who may read
 * it (`authorizeFile`), with its type, a safe file name, its length and single byte ranges. A refused
 * request gets a JSON error and no bytes. The URL may carry a signature, so nothing here logs it.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';
import { JqlFailure, jqlError } from '../errors.ts';
import type { FileRequest } from '../files/file-access.ts';
import { contentDisposition, parseRange } from '../files/file-headers.ts';
import type { FileRow } from '../files/file-table.ts';
import { sendFailure } from './error-reply.ts';
import { credentialsOf } from './request-input.ts';

/** What the route uses of the server: the access rule and where the bytes are. */
export interface FileRouteOptions {
  /** The file's row when the request may read it; else throws the coded refusal (files/file-access.ts). */
  authorize(request: FileRequest): Promise<FileRow>;
  /** Where the content-addressed store keeps a blob (files/file-store.ts). */
  blobPath(sha256: string): string;
}

export const fileRoute: FastifyPluginAsync<FileRouteOptions> = async (app, { authorize, blobPath }) => {
  app.get('/jql/files/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const query = request.query as Record<string, unknown>;
    // Neither a file's bytes nor its signed URL belong in a shared cache or a Referer header.
    reply.header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer').header('x-content-type-options', 'nosniff');
    let row;
    try {
      row = await authorize({ id, expires: query.expires, signature: query.signature, credentials: credentialsOf(request) });
    } catch (error) {
      if (error instanceof JqlFailure) return sendFailure(reply, error);
      throw error;
    }
    const path = blobPath(row.sha256);
    const size = await stat(path).then(
      (info) => info.size,
      () => null,
    );
    // A copy made by `jql-console clone` without --with-files keeps file rows without their bytes.
    if (size === null) return sendFailure(reply, new JqlFailure([jqlError('not_found', 'The bytes of this file are not on this server: only its metadata is (a copy made with jql-console clone keeps file contents only with --with-files)')]));
    reply
      .header('content-type', row.content_type)
      .header('content-disposition', contentDisposition(row.name, row.content_type))
      // Served from the server's origin: a file must never run as a page of it.
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('accept-ranges', 'bytes')
      .header('etag', `"${row.sha256}"`);
    const ifRange = request.headers['if-range'];
    const range = ifRange === undefined || ifRange === `"${row.sha256}"` ? parseRange(request.headers.range, size) : null;
    if (range === 'unsatisfiable') {
      return reply.code(416).header('content-range', `bytes */${size}`).header('content-length', 0).send();
    }
    if (range) {
      reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`).header('content-length', range.end - range.start + 1);
      return reply.send(createReadStream(path, { start: range.start, end: range.end }));
    }
    reply.code(200).header('content-length', size);
    return reply.send(createReadStream(path));
  });
};

/** A request URL as the log may show it: no query string (signatures, tokens) and no file id. */
export function loggableUrl(url: string): string {
  return (url.split('?')[0] as string).replace(/\/jql\/files\/[^/]+/, '/jql/files/:id');
}
