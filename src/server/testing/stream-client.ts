/**
 * Test helpers for `/jql-streams` over a real socket: a server started on port 0 with a fresh data
 * directory, a `ws` client that records every message and waits for the ones a test expects, and a
 * small HTTP client for the writes that produce events.
 */
import { rmSync } from 'node:fs';
import WebSocket from 'ws';
import { start, type RunningServer, type StartOptions } from '../index.ts';
import { tempDir } from './fixture.ts';

export interface StreamServer {
  server: RunningServer;
  /** `ws://host:port{base}/jql-streams` */
  wsUrl: string;
  post(body: unknown, token?: string): Promise<{ status: number; body: any }>;
  login(username: string, password: string): Promise<string>;
  close(): Promise<void>;
}

export async function startStreamServer(options: Partial<StartOptions> = {}): Promise<StreamServer> {
  // A given data directory belongs to the test (it restarts a server on it); a fresh one is removed.
  const owned = options.dataDir === undefined;
  const dataDir = options.dataDir ?? tempDir('jql-streams-');
  const server = await start({ env: {}, port: 0, ...options, dataDir });
  const post: StreamServer['post'] = async (body, token) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${server.url}/jql`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  };
  return {
    server,
    wsUrl: `${server.url.replace(/^http/, 'ws')}/jql-streams`,
    post,
    async login(username, password) {
      const res = await post({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username, password });
      if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
      return res.body.__payload__.token as string;
    },
    async close() {
      await server.close();
      if (owned) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export class StreamClient {
  readonly socket: WebSocket;
  readonly messages: any[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly listeners = new Set<() => void>();

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)));
      for (const listener of [...this.listeners]) listener();
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  static async connect(url: string, options: WebSocket.ClientOptions = {}): Promise<StreamClient> {
    const socket = new WebSocket(url, options);
    const client = new StreamClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Sends a subscribe and waits for its `subscribed` (or `error`) answer. */
  async subscribe(message: Record<string, unknown>): Promise<any> {
    const from = this.messages.length;
    this.send({ type: 'subscribe', ...message });
    return this.waitFor((m) => (m.type === 'subscribed' || m.type === 'error') && m.id === message.id, from);
  }

  /** The first message from index `from` on that matches, waiting for it when needed. */
  waitFor(match: (message: any) => boolean, from = 0, timeoutMs = 5000): Promise<any> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.messages.slice(from).find(match);
        if (found === undefined) return false;
        this.listeners.delete(listener);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const listener = (): void => void check();
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(from)).slice(0, 2000)}`));
      }, timeoutMs);
      this.listeners.add(listener);
      check();
    });
  }

  /** Waits until `count` events of a subscription have arrived and answers them in arrival order. */
  async events(subscription: string, count: number, timeoutMs = 5000): Promise<any[]> {
    const of = (): any[] => this.messages.filter((m) => m.type === 'event' && m.subscription === subscription);
    await this.waitFor(() => of().length >= count, 0, timeoutMs);
    return of();
  }

  /** A ping answered by a pong: every message sent before it has been handled. */
  async roundTrip(): Promise<void> {
    const from = this.messages.length;
    this.send({ type: 'ping' });
    await this.waitFor((m) => m.type === 'pong', from);
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    this.socket.close();
    await this.closed;
  }
}
