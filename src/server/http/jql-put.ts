/**
 * PUT {base}/jql (PROTOCOL.md 9.1): a multipart form holding the `query` part and file parts. The
 * files are staged while the form is read, refused when no query uses them, moved into the store,
 * and handed to the query as `ctx.files`; whatever the answer, the request's hold on its blobs ends
 * with it, so a failed request leaves no file behind.
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { JsonValue } from '../../shared/protocol.ts';
import type { ControllerClassLike, UploadedFile } from '../context.ts';
import type { RequestAnswer, RunJql } from '../dispatch/run-request.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import type { FileStore } from '../files/file-store.ts';
import { receiveParts, type StagedPart } from '../files/intake.ts';
import { checkPartUsage } from '../files/part-usage.ts';
import { sendAnswer } from './answer-reply.ts';
import { sendFailure } from './error-reply.ts';
import { parseJsonBody } from './json-body.ts';
import { credentialsOf, readQueryOptions } from './request-input.ts';

export interface JqlPutOptions {
  run: RunJql;
  fileStore: FileStore;
  controllers: ReadonlyMap<string, ControllerClassLike>;
  limits: { maxFileBytes: number; maxBodyBytes: number };
  rateLimit: false | { max: number; timeWindow: number };
}

/** The multipart parser lives in this plugin alone: its hooks cost nothing on POST /jql. */
export const jqlPutRoute: FastifyPluginAsync<JqlPutOptions> = async (app, { run, fileStore, controllers, limits, rateLimit }) => {
  const { maxFileBytes, maxBodyBytes } = limits;
  app.removeAllContentTypeParsers();
  await app.register(multipart, { limits: { fileSize: maxFileBytes, fieldSize: maxBodyBytes, parts: 1000 }, throwFileSizeLimit: false });

  app.put('/jql', { config: rateLimit ? { rateLimit } : {} }, async (request, reply) => {
    const params = readQueryOptions(request);
    if (params instanceof JqlFailure) return sendFailure(reply, params);
    if (!request.isMultipart()) return sendFailure(reply, unsupported('PUT /jql takes multipart/form-data; send JSON queries with POST /jql'), params.shape);
    let staged: StagedPart[] = [];
    const held: UploadedFile[] = [];
    let result: RequestAnswer | JqlFailure;
    try {
      const intake = await receiveParts(request.parts(), fileStore, { maxFileBytes, maxBodyBytes });
      staged = intake.files;
      const body = parseJsonBody(intake.query) as JsonValue;
      checkPartUsage(
        body,
        staged.map((file) => file.part),
        controllers,
      );
      const files = new Map<string, UploadedFile>();
      for (const file of staged) {
        const path = await fileStore.promote(file.bytes);
        const uploaded = { id: file.id, name: file.name, size: file.bytes.size, contentType: file.contentType, sha256: file.bytes.sha256, path };
        held.push(uploaded);
        files.set(file.part, uploaded);
      }
      result = await run({ ...params, body, credentials: credentialsOf(request), client: request.ip, files }, (error) =>
        request.log.error({ err: error }, 'JQL multipart query failed'),
      );
    } catch (error) {
      if (!(error instanceof JqlFailure)) throw error;
      result = error;
    } finally {
      // Before answering, so a client never sees a refused upload's bytes still on disk: temp files
      // not promoted go, and promoted blobs stay only if a committed row names them.
      await Promise.all(staged.map((file) => fileStore.discard(file.bytes.tempPath)));
      for (const file of held) fileStore.release(file.sha256);
    }
    return result instanceof JqlFailure ? sendFailure(reply, result, params.shape) : sendAnswer(reply, result);
  });
};

function unsupported(message: string): JqlFailure {
  return new JqlFailure([jqlError('unsupported_media_type', message)]);
}
