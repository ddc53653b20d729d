/**
 * Answering before the request body is read (a body over its limit, a wrong content type): the
 * client may still be writing it. Closing the socket then makes many clients (Node's fetch among
 * them) fail with a broken pipe instead of reading the answer, because the close resets the
 * connection under them. So the socket stays open and the rest of the body is read and dropped while
 * the answer goes out; past `MAX_DRAIN_BYTES` more, the socket is closed after all, so a client that
 * never stops sending cannot hold it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How much of a refused body is read and dropped before the connection is closed anyway. */
export const MAX_DRAIN_BYTES = 128 * 1024 * 1024;

export function letClientFinishSending(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  // Fastify asks for `Connection: close` when a body parser fails; it would reset the connection
  // under a client still writing. Node keeps the connection and reads past the rest of the body.
  reply.removeHeader('connection');
  let drained = 0;
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAIN_BYTES) raw.socket?.destroy();
  });
  raw.resume();
}
