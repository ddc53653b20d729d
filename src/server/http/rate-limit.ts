/**
 * An optional per-client limit on JQL requests (workspace `limits.requestsPerMinute`), answered with
 * 429 `rate_limited` and Retry-After. A fixed one-minute window per client address keeps it cheap.
 */
import type { FastifyInstance } from 'fastify';
import { JqlFailure, jqlError } from '../errors.ts';

const WINDOW_MS = 60_000;

export function registerRateLimit(app: FastifyInstance, perMinute: number, paths: string[], now: () => number = Date.now): void {
  if (perMinute <= 0) return;
  const windows = new Map<string, { start: number; count: number }>();
  app.addHook('onRequest', async (request, reply) => {
    if (!paths.includes(request.url.split('?')[0] as string)) return;
    const at = now();
    let window = windows.get(request.ip);
    if (!window || at - window.start >= WINDOW_MS) {
      if (windows.size > 10_000) windows.clear();
      window = { start: at, count: 0 };
      windows.set(request.ip, window);
    }
    window.count += 1;
    if (window.count > perMinute) {
      reply.header('retry-after', Math.ceil((window.start + WINDOW_MS - at) / 1000));
      throw new JqlFailure([jqlError('rate_limited', `More than ${perMinute} requests in a minute; try again shortly`)]);
    }
  });
}
