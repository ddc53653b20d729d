/**
 * PUT {base}/jql (PROTOCOL.md 9.1): a multipart form holding the `query` part and file parts. The
 * files are staged while the form is read, refused when no query uses them, moved into the store,
 * and handed to the query as `ctx.files`; whatever the answer, the request's hold on its blobs ends
 * with it, so a failed request leaves no file behind.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { JsonValue } from '../../shared/protocol.ts';
import type { ServerState, UploadedFile } from '../context.ts';
import { runRequest, type RequestAnswer } from '../dispatch/run-request.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import { receiveParts, type StagedPart } from '../files/intake.ts';
import { checkPartUsage } from '../files/part-usage.ts';
import type { EnvelopeShape } from '../query/envelope.ts';
import { parseJsonBody } from './json-body.ts';
import { credentialsOf, errorBody, readParams, sendAnswer } from './jql-route.ts';

/** Registers the multipart parser and the route; call it after the JSON parser (which clears parsers). */
export async function registerJqlPutRoute(app: FastifyInstance, state: ServerState): Promise<void> {
  const { maxFileBytes, maxBodyBytes } = state.ws.limits;
  await app.register(multipart, { limits: { fileSize: maxFileBytes, fieldSize: maxBodyBytes, parts: 1000 }, throwFileSizeLimit: false });
  const route = `${state.basePath}/jql`;
  // Only PUT /jql reads multipart bodies; anywhere else one is the wrong media type.
  app.addHook('preHandler', async (request, reply) => {
    if (request.isMultipart() && !(request.method === 'PUT' && request.routeOptions.url === route)) {
      return fail(reply, unsupported('multipart/form-data is accepted only by PUT /jql'), 'standard');
    }
    return undefined;
  });

  app.put(route, async (request, reply) => {
    const params = readParams(request);
    if (params instanceof JqlFailure) return fail(reply, params, 'standard');
    if (!request.isMultipart()) return fail(reply, unsupported('PUT /jql takes multipart/form-data; send JSON queries with POST /jql'), params.shape);
    let staged: StagedPart[] = [];
    const held: UploadedFile[] = [];
    let result: RequestAnswer | JqlFailure;
    try {
      const intake = await receiveParts(request.parts(), state.fileStore, { maxFileBytes, maxBodyBytes });
      staged = intake.files;
      const body = parseJsonBody(intake.query) as JsonValue;
      checkPartUsage(
        body,
        staged.map((file) => file.part),
        state.controllers,
      );
      const files = new Map<string, UploadedFile>();
      for (const file of staged) {
        const path = await state.fileStore.promote(file.bytes);
        const uploaded = { id: file.id, name: file.name, size: file.bytes.size, contentType: file.contentType, sha256: file.bytes.sha256, path };
        held.push(uploaded);
        files.set(file.part, uploaded);
      }
      result = await runRequest(state, { ...params, body, credentials: credentialsOf(request), files }, (error) =>
        request.log.error({ err: error }, 'JQL multipart query failed'),
      );
    } catch (error) {
      if (!(error instanceof JqlFailure)) throw error;
      result = error;
    } finally {
      // Before answering, so a client never sees a refused upload's bytes still on disk: temp files
      // not promoted go, and promoted blobs stay only if a committed row names them.
      await Promise.all(staged.map((file) => state.fileStore.discard(file.bytes.tempPath)));
      for (const file of held) state.fileStore.release(file.sha256);
    }
    return result instanceof JqlFailure ? fail(reply, result, params.shape) : sendAnswer(reply, result);
  });
}

function unsupported(message: string): JqlFailure {
  return new JqlFailure([jqlError('unsupported_media_type', message)]);
}

function fail(reply: FastifyReply, failure: JqlFailure, shape: EnvelopeShape): FastifyReply {
  return reply.code(failure.status).type('application/json; charset=utf-8').send(JSON.stringify(errorBody(failure, shape)));
}
