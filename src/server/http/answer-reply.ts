/** Writes a JQL answer: its cookies (a session login or logout), headers, status and JSON body. */
import type { FastifyReply } from 'fastify';
import { clearedSessionCookieOptions, sessionCookieOptions } from '../auth/cookies.ts';
import type { RequestAnswer } from '../dispatch/run-request.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import { answerTooLarge, fitsInBytes } from '../query/answer-budget.ts';
import { serializeAnswer } from '../query/stored-json.ts';
import type { HeldAnswers } from './held-answers.ts';

/** Seconds a client refused for `server_busy` is asked to wait. */
const BUSY_RETRY_SECONDS = 1;

export function sendAnswer(reply: FastifyReply, answer: RequestAnswer, held?: HeldAnswers): FastifyReply {
  // A stored json value is written as its stored text (query/stored-json.ts), not parsed and rewritten.
  const text = serializeAnswer(answer.body);
  // What is sent is what limits.maxAnswerBytes bounds, counted in bytes (issue 29.3).
  if (!fitsInBytes(text, answer.maxBytes)) return sendAnswer(reply, answer.instead(answerTooLarge(answer.maxBytes)), held);
  const bytes = held ? held.admit(text) : null;
  if (held && bytes === null) {
    const busy = answer.instead(
      new JqlFailure([jqlError('server_busy', `The server holds ${held.max} bytes of answers its clients have not read yet (limits.heldAnswerBytes); try again in ${BUSY_RETRY_SECONDS} s`)]),
    );
    return sendAnswer(reply, { ...busy, headers: { ...busy.headers, 'retry-after': String(BUSY_RETRY_SECONDS) } });
  }
  try {
    for (const cookie of answer.cookies) {
      if (cookie.value === null) reply.clearCookie(cookie.name, clearedSessionCookieOptions());
      else reply.setCookie(cookie.name, cookie.value, sessionCookieOptions(cookie.maxAgeSeconds));
    }
    for (const name in answer.headers) reply.header(name, answer.headers[name]);
    return reply.code(answer.status).type('application/json; charset=utf-8').send(text);
  } finally {
    // Held until it is out, even should writing it have failed (then until its connection closes).
    if (held && bytes !== null) held.written(reply, bytes);
  }
}
