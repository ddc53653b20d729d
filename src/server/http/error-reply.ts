/**
 * The JSON error reply of every route (docs/protocol.md "Errors"): the envelope of the asked shape with
 * `__errors__` (rendered by query/envelope.ts, as every answer is) and the status of the first
 * error's code. Routes refuse through sendFailure, or throw a JqlFailure to the app's error handler,
 * which calls it.
 */
import type { FastifyReply } from 'fastify';
import type { JqlFailure } from '../errors.ts';
import { failedOutcome, render, type EnvelopeShape } from '../query/envelope.ts';

export function sendFailure(reply: FastifyReply, failure: JqlFailure, shape: EnvelopeShape = 'standard'): FastifyReply {
  return reply.code(failure.status).type('application/json; charset=utf-8').send(JSON.stringify(render(failedOutcome(failure.errors), shape, false)));
}
