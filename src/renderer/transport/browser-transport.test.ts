import { describe, expect, it } from 'vitest';
import { createBrowserTransport } from './browser-transport.ts';
import { CancelledError, type HttpRequestSpec } from './transport.ts';

const request = (extra: Partial<HttpRequestSpec> = {}): HttpRequestSpec => ({ connectionId: 'c', url: 'http://h:1/jql', method: 'POST', headers: {}, body: '{}', withCredentials: false, ...extra });

/** A 200 answer of `mib` MiB whose stream counts how much of it was pulled, and whether it was cancelled. */
function endless(mib: number) {
  const state = { pulled: 0, cancelled: false };
  const chunk = new Uint8Array(1024 * 1024).fill(97);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= mib) return controller.close();
      state.pulled++;
      controller.enqueue(chunk);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { state, response: new Response(body, { status: 200 }) };
}

describe('browser transport', () => {
  it('reads an answer and asks fetch not to follow redirects', async () => {
    let init: RequestInit | undefined;
    const transport = createBrowserTransport(async (_url, i) => ((init = i), new Response('{"__payload__":[]}', { status: 200 })));
    const result = await transport.send(request());
    expect(new TextDecoder().decode(result.body)).toBe('{"__payload__":[]}');
    expect(init?.redirect).toBe('manual');
  });

  it('refuses a redirect instead of showing another server’s answer as this one’s (issue 22.10)', async () => {
    const transport = createBrowserTransport(async () => new Response(null, { status: 307, headers: { location: 'http://elsewhere/jql' } }));
    await expect(transport.send(request())).rejects.toThrow(/http:\/\/h:1 answered with a redirect \(307\): the console does not follow redirects/);
  });

  it('calls a 304 Not Modified what it is, not a redirect (issue 31.6)', async () => {
    const transport = createBrowserTransport(async () => new Response(null, { status: 304 }));
    const sent = transport.send(request());
    await expect(sent).rejects.toThrow(/http:\/\/h:1 answered 304 Not Modified, with no body/);
    await expect(sent).rejects.not.toThrow(/redirect/);
  });

  it('says the server answered when its body cannot be decoded, not that it could not be reached (issue 31.6)', async () => {
    const body = new ReadableStream<Uint8Array>({ pull: (c) => c.error(new TypeError('Failed to fetch')) });
    const transport = createBrowserTransport(async () => new Response(body, { status: 200, headers: { 'content-length': '1024' } }));
    const sent = transport.send(request());
    await expect(sent).rejects.toThrow(/http:\/\/h:1 answered 200, but its body could not be read \(Failed to fetch\)/);
    await expect(sent).rejects.not.toThrow(/Could not reach/);
  });

  it('stops reading an answer over the limit and says so (answerLimit)', async () => {
    const { state, response } = endless(200);
    let aborted = false;
    const transport = createBrowserTransport(async (_url, init) => {
      init.signal?.addEventListener('abort', () => (aborted = true));
      return response;
    });
    await expect(transport.send(request({ answerLimitBytes: 8 * 1024 * 1024 }))).rejects.toThrow(/larger than this connection's answer limit \(8 MiB\)/);
    expect(state.pulled).toBeLessThan(12);
    expect(state.cancelled).toBe(true);
    expect(aborted).toBe(true);
    // A declared length over the limit is refused before a byte is read.
    const declared = createBrowserTransport(async () => new Response('{}', { status: 200, headers: { 'content-length': String(100 * 1024 * 1024) } }));
    await expect(declared.send(request({ answerLimitBytes: 1024 }))).rejects.toThrow(/answer limit/);
    // The default is 64 MiB.
    const big = endless(65);
    await expect(createBrowserTransport(async () => big.response).send(request())).rejects.toThrow(/\(64 MiB\)/);
  });

  it('cancels a body that never ends', async () => {
    let stream: ReadableStreamDefaultController<Uint8Array> | null = null;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void ((stream = c), c.enqueue(new Uint8Array([123]))) });
    const controller = new AbortController();
    const transport = createBrowserTransport(async (_url, init) => {
      // As fetch does: aborting the request errors the body being read.
      init.signal?.addEventListener('abort', () => stream?.error(new Error('aborted')));
      return new Response(body, { status: 200 });
    });
    const sent = transport.send(request(), { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(sent).rejects.toBeInstanceOf(CancelledError);
  });
});

const base: HttpRequestSpec = { connectionId: 'c', url: 'http://127.0.0.1:8787/jql', method: 'POST', headers: {}, body: '{}', withCredentials: false };

async function credentialsOf(request: HttpRequestSpec): Promise<RequestCredentials | undefined> {
  let seen: RequestCredentials | undefined;
  const transport = createBrowserTransport(async (_url, init) => {
    seen = init.credentials;
    return new Response('{}');
  });
  await transport.send(request);
  return seen;
}

describe('the cookies a browser-mode request sends', () => {
  it("sends the local admin's cookie only with requests that act as it, session cookies cross-origin, else none", async () => {
    expect(await credentialsOf({ ...base, connectionCredentials: true })).toBe('same-origin');
    expect(await credentialsOf({ ...base, withCredentials: true })).toBe('include');
    // "anyone", another identity of a diff, a remote connection on the same origin: no cookie at all.
    expect(await credentialsOf(base)).toBe('omit');
  });
});
