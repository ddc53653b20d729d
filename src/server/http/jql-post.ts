/**
 * POST {base}/jql (docs/protocol.md "Endpoints") as an encapsulated fastify plugin: reads the query options and
 * credentials, hands the parsed body to the dispatcher and writes what it answers.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { JsonValue } from '../../shared/protocol.ts';
import type { RunJql } from '../dispatch/run-request.ts';
import { JqlFailure } from '../errors.ts';
import { sendAnswer } from './answer-reply.ts';
import type { HeldAnswers } from './held-answers.ts';
import { sendFailure } from './error-reply.ts';
import { clientOf, credentialsOf, readQueryOptions } from './request-input.ts';
import { registerJsonParser } from './json-body.ts';

export interface JqlPostOptions {
  run: RunJql;
  /** Route config of @fastify/rate-limit, when the workspace sets `limits.requestsPerMinute`. */
  rateLimit: false | { max: number; timeWindow: number; cache: number };
  /** The bound on answers written and not yet read (limits.heldAnswerBytes), shared with PUT /jql. */
  held: HeldAnswers;
}

export const jqlPostRoute: FastifyPluginAsync<JqlPostOptions> = async (app, { run, rateLimit, held }) => {
  registerJsonParser(app);
  // A request that may write is refused before it runs while slow readers hold the bound (run-request.ts).
  const refuseWrite = (): JqlFailure | null => held.refuseWrite();
  // Not an async handler: an answer ready at once (a cached plan's) is sent at once, without a
  // promise between the route and the reply (issue 14.2); one that waits is sent when it comes. A
  // synchronous handler that has sent must return undefined (fastify would send what it returns).
  app.post('/jql', { config: rateLimit ? { rateLimit } : {} }, (request, reply): Promise<FastifyReply> | undefined => {
    const options = readQueryOptions(request);
    if (options instanceof JqlFailure) {
      sendFailure(reply, options);
      return undefined;
    }
    const answer = run({ ...options, body: request.body as JsonValue, credentials: credentialsOf(request), ...clientOf(request), audit: (line) => request.log.info(line), refuseWrite }, (error) =>
      request.log.error({ err: error }, 'JQL query failed'),
    );
    if (answer instanceof Promise) return answer.then((ready) => sendAnswer(reply, ready, held));
    sendAnswer(reply, answer, held);
    return undefined;
  });
};
