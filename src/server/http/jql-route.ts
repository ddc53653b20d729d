/**
 * POST {base}/jql (PROTOCOL.md 1): reads the query parameters and credentials, hands the parsed body
 * to `runRequest`, and writes the status, cookies and body it answers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerState } from '../context.ts';
import { runRequest, type RequestAnswer, type RequestInput } from '../dispatch/run-request.ts';
import { SESSION_COOKIE, sessionCookieOptions, clearedSessionCookieOptions } from '../auth/cookies.ts';
import { JqlFailure } from '../errors.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import type { EnvelopeShape } from '../query/envelope.ts';

export function registerJqlRoute(app: FastifyInstance, state: ServerState): void {
  app.post(`${state.basePath}/jql`, async (request, reply) => {
    const params = readParams(request);
    if (params instanceof JqlFailure) return reply.code(400).send(errorBody(params, 'standard'));
    const answer = await runRequest(state, { ...params, body: request.body as JsonValue, credentials: credentialsOf(request) }, (error) =>
      request.log.error({ err: error }, 'JQL query failed'),
    );
    return sendAnswer(reply, answer);
  });
}

export function readParams(request: FastifyRequest): Pick<RequestInput, 'infoLevel' | 'shape'> | JqlFailure {
  const query = request.query as Record<string, string | string[] | undefined>;
  const raw = query.query_info_level ?? query.db_query_info_level;
  let infoLevel: 0 | 1 | 2 = 0;
  if (raw !== undefined) {
    if (raw !== '1' && raw !== '2') return new JqlFailure([{ code: 'invalid_request', message: 'query_info_level must be 1 or 2' }]);
    infoLevel = raw === '1' ? 1 : 2;
  }
  const envelope = query.envelope;
  if (envelope !== undefined && envelope !== 'flat') return new JqlFailure([{ code: 'invalid_request', message: 'envelope must be "flat"' }]);
  return { infoLevel, shape: envelope === 'flat' ? 'flat' : 'standard' };
}

export function credentialsOf(request: FastifyRequest): RequestInput['credentials'] {
  return { authorization: request.headers.authorization, cookie: request.cookies?.[SESSION_COOKIE] };
}

export function sendAnswer(reply: FastifyReply, answer: RequestAnswer): FastifyReply {
  for (const cookie of answer.cookies) {
    if (cookie.value === null) reply.clearCookie(cookie.name, clearedSessionCookieOptions());
    else reply.setCookie(cookie.name, cookie.value, sessionCookieOptions(cookie.maxAgeSeconds));
  }
  return reply.code(answer.status).type('application/json; charset=utf-8').send(JSON.stringify(answer.body));
}

export function errorBody(failure: JqlFailure, shape: EnvelopeShape): unknown {
  const envelope = { __payload__: null, __message__: null, __extras__: null, __errors__: failure.errors, __system__: null, __intent__: null };
  if (shape === 'flat') return { status: 'ERROR', data: null, errors: failure.errors, il8n: 'en', extras: null, system_info: null, intent: null, message: null };
  return envelope;
}
