/**
 * POST {base}/jql (docs/protocol.md "Endpoints") as an encapsulated fastify plugin: reads the query options and
 * credentials, hands the parsed body to the dispatcher and writes what it answers.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { JsonValue } from '../../shared/protocol.ts';
import type { RunJql } from '../dispatch/run-request.ts';
import { JqlFailure } from '../errors.ts';
import { sendAnswer } from './answer-reply.ts';
import { sendFailure } from './error-reply.ts';
import { credentialsOf, readQueryOptions } from './request-input.ts';
import { registerJsonParser } from './json-body.ts';

export interface JqlPostOptions {
  run: RunJql;
  /** Route config of @fastify/rate-limit, when the workspace sets `limits.requestsPerMinute`. */
  rateLimit: false | { max: number; timeWindow: number; cache: number };
}

export const jqlPostRoute: FastifyPluginAsync<JqlPostOptions> = async (app, { run, rateLimit }) => {
  registerJsonParser(app);
  app.post('/jql', { config: rateLimit ? { rateLimit } : {} }, async (request, reply) => {
    const options = readQueryOptions(request);
    if (options instanceof JqlFailure) return sendFailure(reply, options);
    const answer = await run({ ...options, body: request.body as JsonValue, credentials: credentialsOf(request), client: request.ip }, (error) =>
      request.log.error({ err: error }, 'JQL query failed'),
    );
    return sendAnswer(reply, answer);
  });
};
