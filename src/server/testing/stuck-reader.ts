/** A client that sends a request and never reads its answer: what the held-answers bound is for. */
import { connect, type Socket } from 'node:net';

/** POSTs `body` to `/jql` of `url` on a raw socket that is paused and has no 'data' listener, so after its first small buffer it reads nothing more. */
export async function stuckReader(url: string, body: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.pause();
  socket.write(`POST /jql HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  return socket;
}
