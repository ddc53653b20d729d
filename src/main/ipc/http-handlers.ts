/** `http:request`: the renderer's requests to JQL servers, through the gateway (origin, reach, credential). */
import { performProxyRequest, type ProxyDeps } from '../http-proxy.ts';
import type { Handlers } from './register.ts';

export function httpHandlers(deps: ProxyDeps): Pick<Handlers, 'http:request'> {
  return { 'http:request': (request) => performProxyRequest(request, deps) };
}
