/**
 * "Reproduce locally" for the browser-mode console (`serve --local-admin`): start a clone of a remote
 * tab's query (POST), follow its progress (GET), cancel it (POST .../cancel). The copy's server is started on
 * 127.0.0.1 and the page reaches it through this server (copy-proxy.ts): a finished copy's connection
 * is a URL of this origin, and no answer holds the copy's local admin token. Only the local admin may
 * call these routes, from a loopback socket, through the same guard as the collection folders; they
 * never carry CORS headers: the request holds the remote connection's token.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { copyPath, type CloneJobStatus, type CloneRequest } from '../../shared/clone.ts';
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
    // Never cached: requests hold the remote connection's token.
    reply.header('cache-control', 'no-store');
    return undefined;
  });

  app.post('/local/clones', NO_CORS, async (request, reply) => {
    const body = request.body as CloneRequest | null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return sendFailure(reply, new JqlFailure([jqlError('invalid_request', 'The body is a clone request: {"url", "token", "query", "depth", "withFiles", "redact", "name"}')]));
    try {
      return { id: jobs.start(body) };
    } catch (error) {
      if (error instanceof CloneJobError) return sendFailure(reply, new JqlFailure([jqlError('invalid_request', error.message)]));
      throw error;
    }
  });

  app.get('/local/clones/:id', NO_CORS, async (request, reply) => {
    const status = jobs.status((request.params as { id: string }).id);
    return status ? throughThisServer(status, request, state.basePath) : sendFailure(reply, new JqlFailure([jqlError('not_found', 'No such copy being made')]));
  });

  app.post('/local/clones/:id/cancel', NO_CORS, async (request, reply) => {
    const status = jobs.cancel((request.params as { id: string }).id);
    return status ?? sendFailure(reply, new JqlFailure([jqlError('not_found', 'No such copy being made')]));
  });
};

/** A finished copy as the page reaches it: at its path on this server's origin (copy-proxy.ts), not at the copy's own port. */
function throughThisServer(status: CloneJobStatus, request: FastifyRequest, basePath: string): CloneJobStatus {
  if (status.state !== 'done') return status;
  // The guard admitted only a loopback Host of this server, so the page's origin is this one.
  const origin = `${request.protocol}://${request.headers.host ?? ''}`;
  return { ...status, connection: { ...status.connection, url: `${origin}${copyPath(basePath, status.connection.connectionId)}` } };
}
