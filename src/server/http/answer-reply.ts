/** Writes a JQL answer: its cookies (a session login or logout), headers, status and JSON body. */
import type { FastifyReply } from 'fastify';
import { clearedSessionCookieOptions, sessionCookieOptions } from '../auth/cookies.ts';
import type { RequestAnswer } from '../dispatch/run-request.ts';

export function sendAnswer(reply: FastifyReply, answer: RequestAnswer): FastifyReply {
  for (const cookie of answer.cookies) {
    if (cookie.value === null) reply.clearCookie(cookie.name, clearedSessionCookieOptions());
    else reply.setCookie(cookie.name, cookie.value, sessionCookieOptions(cookie.maxAgeSeconds));
  }
  for (const name in answer.headers) reply.header(name, answer.headers[name]);
  return reply.code(answer.status).type('application/json; charset=utf-8').send(JSON.stringify(answer.body));
}
