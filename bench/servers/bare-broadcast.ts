/**
 * The floor of the stream fan-out on this stack: a bare node http + `ws` server that answers the
 * benchmark's subscribe like the JQL server and, for each `POST /jql` create, builds the event
 * message's frame once (`Sender.frame`) and writes that same buffer to every subscribed socket. No
 * database, no permissions, no views: what is left is the framing once and one write per socket per
 * event. It prints `listening on <url>` when ready (child process of the bench).
 */
import { createServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { Sender, WebSocketServer } from 'ws';

const TEXT = { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false };
const subscribers = new Set<Duplex>();
let seq = 0;

const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
const server = createServer((request, response) => {
  if (request.method !== 'POST' || request.url !== '/jql') {
    response.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString()) as { sent: number; n: number };
    seq += 1;
    const message = { type: 'event', subscription: 's', event: 'created', namespace: 'live.Tick', seq, at: new Date().toISOString(), record: { id: seq, sent: body.sent, n: body.n } };
    const payload = Buffer.from(JSON.stringify(message));
    const frame = Buffer.concat(Sender.frame(payload, TEXT));
    for (const socket of subscribers) socket.write(frame);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ __payload__: { id: seq } }));
  });
});
server.on('upgrade', (request, socket, head) => {
  wss.handleUpgrade(request, socket, head, (ws) => {
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; id: string };
      if (message.type !== 'subscribe') return;
      ws.send(JSON.stringify({ type: 'subscribed', id: message.id, seq }));
      subscribers.add(socket);
    });
    ws.on('close', () => subscribers.delete(socket));
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}`);
});
const stop = () => {
  for (const ws of wss.clients) ws.terminate();
  server.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
