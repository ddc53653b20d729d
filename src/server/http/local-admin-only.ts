/**
 * The guard of the routes that act on this machine's files and servers for the browser-mode console
 * (collection folders, "Reproduce locally"): only the local admin, and only from where it may act (a
 * loopback peer, a loopback Host with the server's port, no foreign Origin), through the browser's
 * launch cookie or the desktop app's main. One guard, so the routes cannot drift apart.
 */
import type { FastifyRequest } from 'fastify';
import { LOCAL_ADMIN } from '../auth/local-admin.ts';
import type { IdentityService } from '../context.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import { mayActAsLocalAdmin } from './local-admin-request.ts';
import { credentialsOf } from './request-input.ts';

/**
 * Null when the request is the local admin's; else the failure to answer. `what` names the routes
 * ("Collection folders"). `authorizationIsForward`: the request's Authorization is meant for another
 * server (a local copy, behind the copy proxy), so only this server's own cookies identify the caller.
 */
export async function refuseUnlessLocalAdmin(identity: IdentityService, request: FastifyRequest, what: string, options: { authorizationIsForward?: boolean } = {}): Promise<JqlFailure | null> {
  if (!mayActAsLocalAdmin(request)) return new JqlFailure([jqlError('forbidden', `${what} are served to this machine only, at the address the server printed`)]);
  const credentials = credentialsOf(request);
  if (options.authorizationIsForward) delete credentials.authorization;
  const caller = await identity.identify(credentials, undefined);
  if (caller.error || !caller.user) return new JqlFailure([jqlError('unauthenticated', `${what} are for the local admin: open the console from the URL the server printed`)]);
  if (caller.user.username !== LOCAL_ADMIN) return new JqlFailure([jqlError('forbidden', `${what} are for the local admin only`)]);
  return null;
}
