/**
 * How long a client may take to send a request, and how many connections the server holds at once
 * (issue 30.4, docs/protocol.md "Limits"): a body that trickles would otherwise hold its socket (and a
 * file descriptor) for ever, and enough of them leave the server no descriptor to answer anyone.
 * The same on a loopback and a network host. Node's own HTTP server enforces them: it answers 408 and
 * closes a connection whose request is not complete in time (checked every `checkIntervalMs`), closes
 * an idle kept-alive connection, and drops connections past `maxConnections` as they come.
 */
export interface ConnectionLimits {
  /** The whole request, headers and body, must arrive within this (0: no limit). */
  requestTimeoutMs: number;
  /** The headers must arrive within this (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** A kept-alive connection with no request is closed after this. */
  keepAliveTimeoutMs: number;
  /** Connections held at once, stream sockets included; more are closed as they come. */
  maxConnections: number;
  /** How often Node checks the request and headers timeouts; default a quarter of the request timeout, at most 5 s. */
  checkIntervalMs?: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = {
  // Long enough for a 1 GiB upload (maxUploadBytes) at about 10 MB/s; a trickle of a few bytes a second is gone in 2 minutes.
  requestTimeoutMs: 120_000,
  headersTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
  // Under the usual descriptor limit of 1024, leaving room for the database, files and logs.
  maxConnections: 900,
};

/** Fastify's options for them (its own, and those it hands to http.createServer). */
export function fastifyConnectionOptions(limits: ConnectionLimits) {
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs || limits.headersTimeoutMs),
      connectionsCheckingInterval: limits.checkIntervalMs ?? Math.min(5000, Math.max(100, Math.floor((limits.requestTimeoutMs || 20_000) / 4))),
    },
  };
}
