/**
 * The JSON error reply, written once for every route (PROTOCOL.md 3.2): the envelope of the asked
 * shape with `__errors__` and the status of the first error's code.
 */
import type { FastifyReply } from 'fastify';
import type { JqlFailure } from '../errors.ts';
import type { EnvelopeShape } from '../query/envelope.ts';

export function errorBody(failure: JqlFailure, shape: EnvelopeShape): unknown {
  if (shape === 'flat') return { status: 'ERROR', data: null, errors: failure.errors, il8n: 'en', extras: null, system_info: null, intent: null, message: null };
  return { __payload__: null, __message__: null, __extras__: null, __errors__: failure.errors, __system__: null, __intent__: null };
}

export function sendFailure(reply: FastifyReply, failure: JqlFailure, shape: EnvelopeShape = 'standard'): FastifyReply {
  return reply.code(failure.status).type('application/json; charset=utf-8').send(JSON.stringify(errorBody(failure, shape)));
}
