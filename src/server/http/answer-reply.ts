/** Writes a JQL answer: its cookies (a session login or logout), headers, status and JSON body. */
import type { FastifyReply } from 'fastify';
import { clearedSessionCookieOptions, sessionCookieOptions } from '../auth/cookies.ts';
import type { RequestAnswer } from '../dispatch/run-request.ts';
import { answerTooLarge, fitsInBytes } from '../query/answer-budget.ts';
import { serializeAnswer } from '../query/stored-json.ts';
import { BUSY_RETRY_SECONDS, serverBusy, type HeldAnswers } from './held-answers.ts';

export function sendAnswer(reply: FastifyReply, answer: RequestAnswer, held?: HeldAnswers): FastifyReply {
  // A write's answer was serialized and checked inside the write gate, before its commit
  // (dispatch/run-request.ts): it is sent as it is, and counted as held without being refused.
  if (answer.committed !== undefined) {
    const bytes = held ? held.admit(answer.committed, true) : null;
    return writeAnswer(reply, answer, answer.committed, held, bytes);
  }
  // A stored json value is written as its stored text (query/stored-json.ts), not parsed and rewritten.
  const text = serializeAnswer(answer.body);
  // What is sent is what limits.maxAnswerBytes bounds, counted in bytes (issue 29.3).
  if (!fitsInBytes(text, answer.maxBytes)) return sendAnswer(reply, answer.instead(answerTooLarge(answer.maxBytes)), held);
  const bytes = held ? held.admit(text) : null;
  if (held && bytes === null) {
    const busy = answer.instead(serverBusy(held.max));
    return sendAnswer(reply, { ...busy, headers: { ...busy.headers, 'retry-after': String(BUSY_RETRY_SECONDS) } });
  }
  return writeAnswer(reply, answer, text, held, bytes);
}

function writeAnswer(reply: FastifyReply, answer: RequestAnswer, text: string, held: HeldAnswers | undefined, bytes: number | null): FastifyReply {
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
