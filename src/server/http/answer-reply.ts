/** Writes a JQL answer: its cookies (a session login or logout), headers, status and JSON body. */
import type { FastifyReply } from 'fastify';
import { clearedSessionCookieOptions, sessionCookieOptions } from '../auth/cookies.ts';
import type { RequestAnswer } from '../dispatch/run-request.ts';
import { fitsInBytes } from '../query/answer-budget.ts';

export function sendAnswer(reply: FastifyReply, answer: RequestAnswer): FastifyReply {
  const text = JSON.stringify(answer.body);
  // What is sent is what limits.maxAnswerBytes bounds, counted in bytes (issue 29.3).
  if (!fitsInBytes(text, answer.maxBytes)) return sendAnswer(reply, answer.oversize());
  for (const cookie of answer.cookies) {
    if (cookie.value === null) reply.clearCookie(cookie.name, clearedSessionCookieOptions());
    else reply.setCookie(cookie.name, cookie.value, sessionCookieOptions(cookie.maxAgeSeconds));
  }
  for (const name in answer.headers) reply.header(name, answer.headers[name]);
  return reply.code(answer.status).type('application/json; charset=utf-8').send(text);
}
