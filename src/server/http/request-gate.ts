/**
 * The one onRequest hook every request passes, in this order: a refused WebSocket upgrade's socket is
 * ended once its answer is out; a DNS-rebinding Host is answered 421 and goes no further
 * (host-guard.ts); the cookies sent are parsed; a stale local admin cookie is cleared
 * (web/launch-exchange.ts). One hook rather than four: fastify's hook runner costs each hook of each
 * request a turn, measurable on small reads (issue 29). In fastify's callback style: an async hook
 * costs every request a promise.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** The cookies of a request that sent none: one shared, frozen object instead of a new one each time. */
const NO_COOKIES: Record<string, string | undefined> = Object.freeze({});

export interface RequestGateSteps {
  /** False when the request was answered (421) and must go no further. */
  host: (request: FastifyRequest, reply: FastifyReply) => boolean;
  /** Runs for a request that sent cookies, once they are parsed. */
  withCookies: (request: FastifyRequest, reply: FastifyReply) => void;
}

/**
 * Adds the hook to `app`, which must have @fastify/cookie registered with `hook: false` (its own hook
 * would parse the cookies a second time). A reply that sets a cookie parses them again
 * (@fastify/cookie's setCookie), to the same values.
 */
export function addRequestGate(app: FastifyInstance, steps: RequestGateSteps): void {
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    // A WebSocket upgrade refused with an HTTP answer (421, 403) is answered over a socket Node no
    // longer reads, which would stay open for ever (and hold up close): end it once the answer is out.
    if (request.headers.upgrade !== undefined) reply.raw.once('finish', () => request.raw.socket.destroySoon());
    if (!steps.host(request, reply)) return;
    const header = request.headers.cookie;
    if (header === undefined) request.cookies = NO_COOKIES;
    else {
      request.cookies = app.parseCookie(header);
      steps.withCookies(request, reply);
    }
    done();
  });
}
