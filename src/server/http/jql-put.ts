/**
 * PUT {base}/jql (docs/protocol.md "Multipart uploads"): a multipart form whose first part is the `query`, then file
 * parts. The query is parsed and authorized before any file part is read (`plan`), each file part is
 * refused before it is written unless a query uses it, and the parts together are bounded by
 * `limits.maxUploadBytes` (a declared body over it is refused before reading). Staged files are moved
 * into the store and handed to the query as `ctx.files`; whatever the answer, the request's hold on
 * its blobs ends with it, so a failed request leaves no file behind.
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { JsonValue } from '../../shared/protocol.ts';
import type { UploadedFile } from '../context.ts';
import type { UploadPlan } from '../dispatch/plan-upload.ts';
import type { RequestAnswer, RunJql } from '../dispatch/run-request.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import type { FileStore } from '../files/file-store.ts';
import { receiveParts, type IntakeLimits, type StagedPart } from '../files/intake.ts';
import { sendAnswer } from './answer-reply.ts';
import type { HeldAnswers } from './held-answers.ts';
import { sendFailure } from './error-reply.ts';
import { letClientFinishSending } from './refused-body.ts';
import { parseJsonBody } from './json-body.ts';
import { clientOf, credentialsOf, readQueryOptions } from './request-input.ts';

export interface JqlPutOptions {
  run: RunJql;
  /** Parses and authorizes the query part (dispatch/plan-upload.ts); throws a JqlFailure to refuse. */
  plan: (body: JsonValue, credentials: ReturnType<typeof credentialsOf>) => Promise<UploadPlan>;
  fileStore: FileStore;
  limits: IntakeLimits;
  rateLimit: false | { max: number; timeWindow: number; cache: number };
  /** The bound on answers written and not yet read (limits.heldAnswerBytes), shared with POST /jql. */
  held: HeldAnswers;
}

/** The multipart parser lives in this plugin alone: its hooks cost nothing on POST /jql. */
export const jqlPutRoute: FastifyPluginAsync<JqlPutOptions> = async (app, { run, plan, fileStore, limits, rateLimit, held: heldAnswers }) => {
  const { maxFileBytes, maxBodyBytes, maxUploadBytes } = limits;
  app.removeAllContentTypeParsers();
  await app.register(multipart, { limits: { fileSize: maxFileBytes, fieldSize: maxBodyBytes, parts: 1000 }, throwFileSizeLimit: false });

  app.put('/jql', { config: rateLimit ? { rateLimit } : {} }, async (request, reply) => {
    const params = readQueryOptions(request);
    if (params instanceof JqlFailure) return sendFailure(reply, params);
    if (!request.isMultipart()) return sendFailure(reply, unsupported('PUT /jql takes multipart/form-data; send JSON queries with POST /jql'), params.shape);
    // Refused before a byte is read; the client finishes writing and then reads this answer.
    if (Number(request.headers['content-length']) > maxUploadBytes) {
      letClientFinishSending(request, reply);
      return sendFailure(reply, new JqlFailure([jqlError('payload_too_large', `The upload is larger than limits.maxUploadBytes (${maxUploadBytes} bytes)`)]), params.shape);
    }
    const credentials = credentialsOf(request);
    let staged: StagedPart[] = [];
    const held: UploadedFile[] = [];
    let result: RequestAnswer | JqlFailure;
    try {
      const intake = await receiveParts(request.parts(), fileStore, limits, (query) => plan(parseJsonBody(query) as JsonValue, credentials));
      staged = intake.files;
      const files = new Map<string, UploadedFile>();
      for (const file of staged) {
        const path = await fileStore.promote(file.bytes);
        const uploaded = { id: file.id, name: file.name, size: file.bytes.size, contentType: file.contentType, sha256: file.bytes.sha256, path };
        held.push(uploaded);
        files.set(file.part, uploaded);
      }
      result = await run({ ...params, body: intake.plan.body, credentials, ...clientOf(request), files, refuseWrite: () => heldAnswers.refuseWrite() }, (error) =>
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
    return result instanceof JqlFailure ? sendFailure(reply, result, params.shape) : sendAnswer(reply, result, heldAnswers);
  });
};

function unsupported(message: string): JqlFailure {
  return new JqlFailure([jqlError('unsupported_media_type', message)]);
}
