/** `http:request`: the renderer's requests to JQL servers, performed with the connection's cookie jar. */
import { performProxyRequest, type FetchFn } from '../http-proxy.ts';
import type { Handlers } from './register.ts';

export function httpHandlers(deps: { fetchFor: (connectionId: string) => FetchFn }): Pick<Handlers, 'http:request'> {
  return { 'http:request': (request) => performProxyRequest(request, deps.fetchFor(request.connectionId)) };
}
