/**
 * `POST /workspace/apply` and `POST /workspace/cancel` (docs/workspace.md "Changing a workspace while
 * it runs"), served under `serve --watch` only: the console applies or cancels the save the watcher
 * held back because it would stop serving stored values. The body names that save by the digest
 * `/healthz` shows in `watch.pendingDigest`: a save made since the preview has another digest and is
 * refused (409), so nothing is applied that the person did not see. Only an admin may (the local
 * admin, or a user with the admin role), and never on a production server.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_ROLE } from '../auth/user.ts';
import type { IdentityService } from '../context.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import { sendFailure } from '../http/error-reply.ts';
import { credentialsOf } from '../http/request-input.ts';
import type { PendingAnswer, WatchStatus } from './watch-status.ts';

export interface WatchRouteOptions {
  identity: IdentityService;
  status: WatchStatus;
  production: boolean;
}

export const watchRoute: FastifyPluginAsync<WatchRouteOptions> = async (app, { identity, status, production }) => {
  const act = (verb: 'apply' | 'cancel') => async (request: FastifyRequest, reply: FastifyReply) => {
    const refusal = await refuseUnlessAdmin(identity, request, production);
    if (refusal) return sendFailure(reply, refusal);
    const body = request.body as { digest?: unknown } | null | undefined;
    const digest = typeof body === 'object' && body !== null ? body.digest : undefined;
    if (typeof digest !== 'string' || digest === '') {
      return sendFailure(reply, new JqlFailure([jqlError('invalid_request', 'The body is {"digest": "<watch.pendingDigest of /healthz>"}')]));
    }
    const answer = verb === 'apply' ? status.apply(digest) : status.cancel(digest);
    const failure = failureOf(answer, verb);
    if (failure) return sendFailure(reply, failure);
    // Applied by the watcher, after this answer: a restart of the server would otherwise wait for it.
    return reply.code(202).send({ [verb === 'apply' ? 'applying' : 'cancelled']: digest });
  };
  app.post('/workspace/apply', act('apply'));
  app.post('/workspace/cancel', act('cancel'));
};

async function refuseUnlessAdmin(identity: IdentityService, request: FastifyRequest, production: boolean): Promise<JqlFailure | null> {
  if (production) return new JqlFailure([jqlError('forbidden', 'A workspace is not applied from the console on a production server: deploy it instead')]);
  const caller = await identity.identify(credentialsOf(request), undefined);
  if (caller.error) return new JqlFailure([jqlError('unauthenticated', caller.error.message)]);
  if (!caller.user) return new JqlFailure([jqlError('unauthenticated', 'Applying a workspace is for an admin: sign in first')]);
  if (!caller.user.roles.includes(ADMIN_ROLE)) return new JqlFailure([jqlError('forbidden', 'Applying a workspace is for an admin only')]);
  return null;
}

function failureOf(answer: PendingAnswer, verb: 'apply' | 'cancel'): JqlFailure | null {
  if (answer === 'nothing') return new JqlFailure([jqlError('not_found', `No previewed workspace is waiting to ${verb === 'apply' ? 'be applied' : 'be cancelled'}`)]);
  if (answer === 'stale') {
    return new JqlFailure([jqlError('conflict', 'The workspace file changed since this preview: look at the new preview (watch.pendingDigest of /healthz) first')]);
  }
  return null;
}
