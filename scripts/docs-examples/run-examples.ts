/**
 * Runs the examples of a document (examples.ts) against a server, one after the other, and says how
 * each answer differs from the documented one. Values an answer captures (`{{token}}`) are kept for
 * the examples after it, as a reader running them in order would keep them.
 */
import { request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import { matchJson, matchText, ANY } from './answer-match.ts';
import { substitute, type Example, type HttpAnswer, type HttpRequest, type StreamLine } from './examples.ts';

const RECEIVE_TIMEOUT_MS = 5000;

export class ExampleRunner {
  readonly values = new Map<string, unknown>();
  private readonly baseUrl: string;
  private socket: StreamSocket | null = null;

  /** `baseUrl`: the server's origin and base path, e.g. `http://127.0.0.1:8787`. */
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  /** The differences between the documented and the actual answer; empty when they agree. */
  async run(example: Example): Promise<string[]> {
    return example.kind === 'http' ? this.http(example.request, example.answer) : this.stream(example.steps);
  }

  close(): void {
    this.socket?.close();
    this.socket = null;
  }

  private async http(request: HttpRequest, answer: HttpAnswer): Promise<string[]> {
    const headers = new Headers(request.headers.map(([name, value]) => [name, substitute(value, this.values)]));
    let body: string | undefined = request.body.trim() === '' ? undefined : substitute(request.body, this.values);
    // Multipart bodies are written with plain line breaks in the docs; on the wire they are CRLF.
    if (body !== undefined && /^multipart\//.test(headers.get('content-type') ?? '')) body = body.replace(/\r?\n/g, '\r\n');
    const url = `${this.baseUrl}${substitute(request.path, this.values)}`;
    // fetch() writes its own Host: a request that names one goes out as written, through node:http.
    const response = headers.has('host') ? await sendAsWritten(url, request.method, headers, body) : await fetch(url, { method: request.method, headers, body, redirect: 'manual' });
    const text = await response.text();
    const problems: string[] = [];
    if (response.status !== answer.status) problems.push(`status: expected ${answer.status}, got ${response.status} (${text.slice(0, 300)})`);
    for (const [name, expected] of answer.headers) problems.push(...this.header(name, expected, response.headers));
    problems.push(...this.body(answer.body, text));
    return problems;
  }

  private header(name: string, expected: string, actual: Headers): string[] {
    const value = name === 'set-cookie' ? (actual.getSetCookie().find((cookie) => cookie.split('=')[0] === expected.split('=')[0]) ?? null) : actual.get(name);
    if (value === null) return [`header ${name}: missing`];
    const names: string[] = [];
    // `…` stands for anything; `{{name}}` captures a token (up to `;`, `,` or a space).
    const pattern = expected
      .split(/(\{\{[A-Za-z0-9_]+\}\}|…)/)
      .map((part) => {
        const capture = /^\{\{([A-Za-z0-9_]+)\}\}$/.exec(part);
        if (capture) {
          names.push(capture[1] as string);
          return '([^;,\\s]*)';
        }
        return part === ANY ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
    const found = new RegExp(`^${pattern}$`, 's').exec(value);
    if (!found) return [`header ${name}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(value)}`];
    names.forEach((captured, index) => this.values.set(captured, found[index + 1]));
    return [];
  }

  private body(expected: string, actual: string): string[] {
    const wanted = expected.trim();
    if (wanted === '') return actual === '' ? [] : [`body: expected none, got ${JSON.stringify(actual.slice(0, 120))}`];
    if (!wanted.startsWith('{') && !wanted.startsWith('[')) return matchText(wanted, actual);
    return this.json(wanted, actual, 'body');
  }

  private json(expectedText: string, actualText: string, what: string): string[] {
    let expected: unknown;
    let actual: unknown;
    try {
      expected = JSON.parse(expectedText);
    } catch (error) {
      return [`${what}: the documented JSON does not parse (${(error as Error).message})`];
    }
    try {
      actual = JSON.parse(actualText);
    } catch {
      return [`${what}: the answer is not JSON: ${JSON.stringify(actualText.slice(0, 200))}`];
    }
    const match = matchJson(expected, actual);
    const problems = match.mismatches.map((m) => `${what} ${m}`);
    // A name captured before must stand for the same value (the id a later answer repeats).
    for (const [name, value] of match.captured) {
      if (this.values.has(name) && JSON.stringify(this.values.get(name)) !== JSON.stringify(value)) {
        problems.push(`${what}: {{${name}}} was ${JSON.stringify(this.values.get(name))}, here it is ${JSON.stringify(value)}`);
      } else this.values.set(name, value);
    }
    return problems;
  }

  private async stream(steps: StreamLine[]): Promise<string[]> {
    const problems: string[] = [];
    for (const step of steps) {
      if (step.kind === 'open') {
        this.close();
        const url = `${this.baseUrl.replace(/^http/, 'ws')}${substitute(step.path, this.values)}`;
        this.socket = await StreamSocket.open(url);
        continue;
      }
      const socket = this.socket;
      if (!socket) return [...problems, 'a websocket block must open a socket ("WS /jql-streams") before it sends or receives'];
      if (step.kind === 'send') socket.send(substitute(step.text, this.values));
      else if (step.kind === 'receive') {
        const message = await socket.next();
        if (message === null) return [...problems, `expected ${step.text}, but nothing arrived within ${RECEIVE_TIMEOUT_MS} ms`];
        problems.push(...this.json(step.text, message, `message ${JSON.stringify(step.text.slice(0, 40))}`));
      } else {
        const code = await socket.closed();
        if (code !== step.code) problems.push(`expected the socket to close with ${step.code}, got ${code ?? 'no close'}`);
      }
    }
    return problems;
  }
}

/** An HTTP request with exactly the given headers (`Host` included), answered as fetch() answers. */
function sendAsWritten(url: string, method: string, headers: Headers, body: string | undefined): Promise<{ status: number; headers: Headers; text(): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers: Object.fromEntries(headers), setHost: false }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) for (const one of [value ?? []].flat()) answer.append(name, one);
        resolve({ status: incoming.statusCode ?? 0, headers: answer, text: async () => text });
      });
    });
    outgoing.on('error', reject);
    if (body !== undefined) outgoing.write(body);
    outgoing.end();
  });
}

/** A socket whose messages wait in a queue until an example reads them. */
class StreamSocket {
  private readonly socket: WebSocket;
  private readonly queue: string[] = [];
  private waiter: (() => void) | null = null;
  private closeCode: number | null = null;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data) => {
      this.queue.push(data.toString());
      this.waiter?.();
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      this.waiter?.();
    });
  }

  static open(url: string): Promise<StreamSocket> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new StreamSocket(socket)));
      socket.once('error', reject);
    });
  }

  send(text: string): void {
    this.socket.send(text);
  }

  async next(): Promise<string | null> {
    if (this.queue.length === 0 && this.closeCode === null) await this.wait();
    return this.queue.shift() ?? null;
  }

  async closed(): Promise<number | null> {
    if (this.closeCode === null) await this.wait();
    return this.closeCode;
  }

  close(): void {
    this.socket.close();
  }

  /** Until a message or the close arrives, or the timeout passes. */
  private wait(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiter = null;
        resolve();
      };
      const timer = setTimeout(done, RECEIVE_TIMEOUT_MS);
      this.waiter = done;
    });
  }
}
