/**
 * A source server that does not play fair (issue 32.1, 32.4), on 127.0.0.1: every POST /jql is
 * answered by the chosen behaviour. `huge` streams a generated answer of `hugeBytes` (never held in
 * memory, sent as fast as the reader takes it), `drip` sends one byte every `dripMs`, `silence`
 * never answers, `paging` answers describe with `paging.describe` and every read of a multi-query
 * with the records (`{ id }` only) its `paging.page` picks for the asked namespace, offset and limit
 * (issue 32.9: ids that repeat or fall). The test closes it (and every socket it holds) when it is done.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type HostileBehaviour = 'huge' | 'drip' | 'silence' | 'paging';

/** A source's wrong paging: the ids it answers for a read's page, and the total it claims. */
export interface PagingPlan {
  describe: unknown;
  page(namespace: string, offset: number, limit: number): { ids: Array<number | bigint>; filtered: number };
}

export interface HostileSource {
  url: string;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, 'a');

export async function hostileSource(behaviour: HostileBehaviour, options: { hugeBytes?: number; dripMs?: number; paging?: PagingPlan } = {}): Promise<HostileSource> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request, response) => {
    if (behaviour === 'paging') return answerPages(request, response, options.paging as PagingPlan);
    request.resume();
    if (behaviour === 'silence') return;
    response.writeHead(200, { 'content-type': 'application/json' });
    if (behaviour === 'huge') streamHuge(response, options.hugeBytes ?? 1024 ** 3);
    else drip(response, options.dripMs ?? 1000, timers);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `{"__payload__":"aaaa…` up to `total` bytes, written as the socket drains. */
function streamHuge(response: ServerResponse, total: number): void {
  let sent = 0;
  const pump = (): void => {
    while (sent < total) {
      const chunk = sent === 0 ? Buffer.from('{"__payload__":"') : CHUNK.subarray(0, Math.min(CHUNK.length, total - sent));
      sent += chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', pump);
        return;
      }
    }
    response.end('"}');
  };
  response.on('error', () => undefined);
  pump();
}

function drip(response: ServerResponse, everyMs: number, timers: Set<NodeJS.Timeout>): void {
  response.write('{');
  const timer = setInterval(() => response.write(' '), everyMs);
  timers.add(timer);
  response.on('close', () => {
    clearInterval(timer);
    timers.delete(timer);
  });
}

type Meta = { namespace?: string; intent?: string; offset?: number; limit?: number };

/** Answers describe with the plan's schema, and each subquery `qN` with the plan's page. */
function answerPages(request: IncomingMessage, response: ServerResponse, plan: PagingPlan): void {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const document = JSON.parse(body) as Record<string, { __meta__?: Meta }>;
    let payload: unknown;
    if ((document.__meta__ as Meta | undefined)?.intent === 'describe') payload = plan.describe;
    else {
      payload = Object.fromEntries(
        Object.entries(document).map(([key, query]) => {
          const meta = query.__meta__ ?? {};
          const { ids, filtered } = plan.page(meta.namespace ?? '', meta.offset ?? 0, meta.limit ?? 1000);
          return [key, { data: ids.map((id) => ({ id })), extras: { filtered }, errors: null }];
        }),
      );
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    // A bigint id goes as its digits (a 64-bit id a double cannot hold).
    response.end(JSON.stringify({ __payload__: payload, __errors__: null }, (_key, value: unknown) => (typeof value === 'bigint' ? (JSON.rawJSON?.(String(value)) ?? String(value)) : value)));
  });
}
