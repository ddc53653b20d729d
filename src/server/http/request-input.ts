/**
 * What a JQL route reads from the HTTP request besides the body: the query-string options
 * (`query_info_level`, `envelope`, docs/protocol.md "The flat shape", "Diagnostics") and the presented credentials.
 */
import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../auth/cookies.ts';
import type { Credentials } from '../auth/identify.ts';
import { KNOWN_CLIENT_COOKIE } from '../auth/known-client.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import type { EnvelopeShape } from '../query/envelope.ts';
import { presentedLocalAdmin } from './local-admin-request.ts';

export interface QueryOptions {
  infoLevel: 0 | 1 | 2;
  shape: EnvelopeShape;
}

export function readQueryOptions(request: FastifyRequest): QueryOptions | JqlFailure {
  const query = request.query as Record<string, string | string[] | undefined>;
  const raw = query.query_info_level ?? query.db_query_info_level;
  let infoLevel: 0 | 1 | 2 = 0;
  if (raw !== undefined) {
    if (raw !== '1' && raw !== '2') return new JqlFailure([jqlError('invalid_request', 'query_info_level must be 1 or 2')]);
    infoLevel = raw === '1' ? 1 : 2;
  }
  const envelope = query.envelope;
  if (envelope !== undefined && envelope !== 'flat') return new JqlFailure([jqlError('invalid_request', 'envelope must be "flat"')]);
  return { infoLevel, shape: envelope === 'flat' ? 'flat' : 'standard' };
}

/** Who the request comes from, for login throttling: its peer address and its known-client cookie. */
export function clientOf(request: FastifyRequest): { client: string; knownClient?: string } {
  const knownClient = request.cookies?.[KNOWN_CLIENT_COOKIE];
  return { client: request.ip, ...(knownClient !== undefined ? { knownClient } : {}) };
}

/**
 * The Bearer header, the session cookie, the local admin's cookie and page secret from a request that may carry them
 * (and on the stream route, `?token=`).
 */
export function credentialsOf(request: FastifyRequest, withQueryToken = false): Credentials {
  const credentials: Credentials = { authorization: request.headers.authorization, cookie: request.cookies?.[SESSION_COOKIE] };
  const localAdmin = presentedLocalAdmin(request);
  if (localAdmin !== undefined) credentials.localAdmin = localAdmin;
  if (withQueryToken) {
    const token = (request.query as Record<string, unknown>).token;
    if (typeof token === 'string') credentials.queryToken = token;
  }
  return credentials;
}
