/**
 * "Reproduce locally" for the browser-mode console (`serve --local-admin`): start a clone of a remote
 * tab's query (POST), follow its progress (GET), cancel it (POST .../cancel). The copy's server is started on
 * 127.0.0.1 and answers the console's origin. Only the local admin may call these routes, from a
 * loopback socket, through the same guard as the collection folders; they never carry CORS headers:
 * an answer holds the copy's local admin token, and the request holds the remote connection's.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { CloneRequest } from '../../shared/clone.ts';
import type { ServerState } from '../context.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import { sendFailure } from '../http/error-reply.ts';
import { refuseUnlessLocalAdmin } from '../http/local-admin-only.ts';
import { CloneJobError, type CloneJobs } from './clone-jobs.ts';

export interface CloneRouteOptions {
  state: ServerState;
  jobs: CloneJobs;
}

/** `@fastify/cors` skips a route whose config says so (whatever `--cors` allows elsewhere). */
const NO_CORS = { config: { cors: false } };

export const cloneRoute: FastifyPluginAsync<CloneRouteOptions> = async (app, { state, jobs }) => {
  app.addHook('preHandler', async (request, reply) => {
    const refusal = await refuseUnlessLocalAdmin(state, request, 'Local copies');
    if (refusal) return sendFailure(reply, refusal);
    // Never cached: answers hold tokens.
    reply.header('cache-control', 'no-store');
    return undefined;
  });

  app.post('/local/clones', NO_CORS, async (request, reply) => {
    const body = request.body as CloneRequest | null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return sendFailure(reply, new JqlFailure([jqlError('invalid_request', 'The body is a clone request: {"url", "token", "query", "depth", "withFiles", "redact", "name"}')]));
    // The page's own origin may call the copy's server; anything else gets no CORS from it.
    const origin = typeof request.headers.origin === 'string' ? request.headers.origin : `${request.protocol}://${request.headers.host ?? ''}`;
    try {
      return { id: jobs.start(body, [origin]) };
    } catch (error) {
      if (error instanceof CloneJobError) return sendFailure(reply, new JqlFailure([jqlError('invalid_request', error.message)]));
      throw error;
    }
  });

  app.get('/local/clones/:id', NO_CORS, async (request, reply) => {
    const status = jobs.status((request.params as { id: string }).id);
    return status ?? sendFailure(reply, new JqlFailure([jqlError('not_found', 'No such copy being made')]));
  });

  app.post('/local/clones/:id/cancel', NO_CORS, async (request, reply) => {
    const status = jobs.cancel((request.params as { id: string }).id);
    return status ?? sendFailure(reply, new JqlFailure([jqlError('not_found', 'No such copy being made')]));
  });
};
