/**
 * "Reproduce locally" for the browser-mode console (`serve --local-admin`): start a clone of a remote
 * tab's query (POST), follow its progress (GET), cancel it (POST .../cancel). The copy's server is started on
 * 127.0.0.1 and the page reaches it through this server (copy-proxy.ts): a finished copy's connection
 * is a URL of this origin, and no answer holds the copy's local admin token. Only the local admin may
 * call these routes, from a loopback socket, through the same guard as the collection folders; they
 * never carry CORS headers: the request holds the remote connection's token.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { stringifyKeepingNumbers } from '../../shared/big-number.ts';
import { copyPath, type CloneJobStatus, type CloneRequest } from '../../shared/clone.ts';
import type { IdentityService } from '../context.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import { sendFailure } from '../http/error-reply.ts';
import { refuseUnlessLocalAdmin } from '../http/local-admin-only.ts';
import { CloneJobError, type CloneJobs } from './clone-jobs.ts';

export interface CloneRouteOptions {
  /** Who calls: only the local admin may (http/local-admin-only.ts). */
  identity: IdentityService;
  /** Where this server's routes are (`--base-path`): a copy is reached under it. */
  basePath: string;
  jobs: CloneJobs;
}

/** `@fastify/cors` skips a route whose config says so (whatever `--cors` allows elsewhere). */
const NO_CORS = { config: { cors: false } };

export const cloneRoute: FastifyPluginAsync<CloneRouteOptions> = async (app, { identity, basePath, jobs }) => {
  app.addHook('preHandler', async (request, reply) => {
    const refusal = await refuseUnlessLocalAdmin(identity, request, 'Local copies');
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
    return status ? sendStatus(reply, throughThisServer(status, request, basePath)) : sendFailure(reply, new JqlFailure([jqlError('not_found', 'No such copy being made')]));
  });

  app.post('/local/clones/:id/cancel', NO_CORS, async (request, reply) => {
    const status = jobs.cancel((request.params as { id: string }).id);
    return status ? sendStatus(reply, status) : sendFailure(reply, new JqlFailure([jqlError('not_found', 'No such copy being made')]));
  });
};

/**
 * A job's status as JSON whose 64-bit ids are digits: the manifest's query holds them kept
 * (shared/big-number.ts), and fastify's JSON.stringify would send their marker strings instead of the
 * digits clone-manifest.json holds.
 */
function sendStatus(reply: FastifyReply, status: CloneJobStatus): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(stringifyKeepingNumbers(status));
}

/** A finished copy as the page reaches it: at its path on this server's origin (copy-proxy.ts), not at the copy's own port. */
function throughThisServer(status: CloneJobStatus, request: FastifyRequest, basePath: string): CloneJobStatus {
  if (status.state !== 'done') return status;
  // The guard admitted only a loopback Host of this server, so the page's origin is this one.
  const origin = `${request.protocol}://${request.headers.host ?? ''}`;
  return { ...status, connection: { ...status.connection, url: `${origin}${copyPath(basePath, status.connection.connectionId)}` } };
}
