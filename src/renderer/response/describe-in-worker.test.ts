import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBrowserTransport } from '../transport/browser-transport.ts';
import { fetchDescribe, type ServerTarget } from '../transport/jql-client.ts';
import { DESCRIBE_SLICE_NAMESPACES, isDescribeSlice } from './describe-slices.ts';
import type { WorkerRequest } from './parse-protocol.ts';
import { appDescribeWorker, appParseWorker } from './parse-response.ts';
import { workerWith } from './worker-stand-in.fixture.ts';

const target: ServerTarget = { connectionId: 'c', baseUrl: 'http://127.0.0.1:9', authClass: 'jwt', token: 't0k' };

/** A describe answer of `models` models in one app; each model's only field holds a 64-bit integer default. */
function describeText(models: number): string {
  const model = { fields: { id: { type: 'integer', required: false, null: false, lookups: ['exact'] } }, relations: {}, search: [], ordering: [], intents: ['retrieve'], permissions: {} };
  const apps = { big: { models: Object.fromEntries(Array.from({ length: models }, (_, i) => [`M${i}`, model])), controllers: { Report: { intents: ['run'] } }, collections: {} } };
  return JSON.stringify({ __payload__: { version: '1.0.0', workspace: 'w', apps }, __errors__: null, __intent__: 'describe' });
}

describe('a describe read by a worker of its own (issue 31, huge-describe)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is fetched and read by the worker: the window reads none of its bytes and gets it in slices of a bounded size', async () => {
    const models = DESCRIBE_SLICE_NAMESPACES + 500;
    const text = describeText(models);
    let pageFetches = 0;
    const transport = createBrowserTransport(async () => (pageFetches++, new Response('{}')));
    const workerFetches: string[] = [];
    const { worker, toWindow, toWorker } = workerWith(async (url) => (workerFetches.push(url), new Response(text, { status: 200, headers: { 'content-type': 'application/json' } })));

    const outcome = await fetchDescribe(transport, target, () => worker);

    // The whole describe, in its order, without the window's fetch.
    expect(outcome.describe && Object.keys(outcome.describe.apps.big!.models)).toEqual(Array.from({ length: models }, (_, i) => `M${i}`));
    expect(pageFetches).toBe(0);
    expect(workerFetches).toEqual(['http://127.0.0.1:9/jql']);
    expect((toWorker[0] as Extract<WorkerRequest, { fetch: unknown }>).kind).toBe('describe');
    // Each message is one task on the window's thread: none holds more than a slice's namespaces, none holds bytes.
    const slices = toWindow.map(({ message }) => message).filter(isDescribeSlice);
    // The models in two slices, the controller in one of its group.
    expect(slices.map(({ slice }) => slice.entries.length)).toEqual([DESCRIBE_SLICE_NAMESPACES, 500, 1]);
    for (const { slice } of slices) expect(slice.entries.length).toBeLessThanOrEqual(DESCRIBE_SLICE_NAMESPACES);
    for (const { message, transfer } of toWindow) {
      expect(transfer).toEqual([]);
      expect(Object.values(message).some((v) => v instanceof ArrayBuffer || ArrayBuffer.isView(v) || v instanceof Blob)).toBe(false);
    }
  });

  it('says why there is no schema when the worker cannot reach the server, or the server has no describe', async () => {
    const transport = createBrowserTransport(async () => new Response('{}'));
    const unreachable = workerWith(async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(fetchDescribe(transport, target, () => unreachable.worker)).rejects.toThrow(/Could not reach http:\/\/127.0.0.1:9\/jql \(Failed to fetch\)/);
    const missing = workerWith(async () => new Response(JSON.stringify({ __payload__: null, __errors__: [{ code: 'unknown_namespace', message: 'No system.Schema' }] }), { status: 404 }));
    await expect(fetchDescribe(transport, target, () => missing.worker)).resolves.toEqual({ describe: null, reason: 'No system.Schema' });
  });

  it('sends the token in a header to the connection\'s URL only, follows no redirect and holds the answer limit', async () => {
    const sent: Array<{ url: string; init?: RequestInit }> = [];
    const page = () => ({ origin: 'http://127.0.0.1:8787', secret: () => 'page-secret' });
    const transport = createBrowserTransport(async () => new Response('{}'), { of: () => 1024 * 1024 }, page);
    // A describe that moved elsewhere: refused with the transport's sentence, the new place never asked.
    const moved = workerWith(async (url, init) => (sent.push({ url, init }), new Response(null, { status: 307, headers: { location: 'http://elsewhere.example/jql' } })));
    await expect(fetchDescribe(transport, target, () => moved.worker)).rejects.toThrow(/answered with a redirect \(307\)/);
    expect(sent.map(({ url }) => url)).toEqual(['http://127.0.0.1:9/jql']);
    expect(sent[0]!.init?.redirect).toBe('manual');
    expect(new Headers(sent[0]!.init?.headers).get('authorization')).toBe('Bearer t0k');
    // The page's own secret is for the console's origin, never for another server's describe.
    expect(new Headers(sent[0]!.init?.headers).get('x-jql-local-admin')).toBeNull();
    for (const { url } of sent) expect(url).not.toContain('t0k');
    // A describe larger than the connection's answer limit is refused, not read whole.
    const huge = workerWith(async () => new Response(describeText(20_000), { status: 200 }));
    await expect(fetchDescribe(transport, target, () => huge.worker)).rejects.toThrow(/larger than this connection's answer limit \(1 MiB\)/);
  });

  it('goes to the describes\' worker, not the one Runs use: a Run never waits behind a describe being read', async () => {
    const made: Array<{ name: string; received: unknown[] }> = [];
    vi.stubGlobal(
      'Worker',
      class {
        readonly received: unknown[] = [];
        constructor(_url: URL, options: { name: string }) {
          made.push({ name: options.name, received: this.received });
        }
        postMessage(message: unknown) {
          this.received.push(message);
        }
        addEventListener() {}
      },
    );
    // This describe is never answered: its worker is busy with it for as long as the test runs.
    void fetchDescribe(createBrowserTransport(async () => new Response('{}')), target);
    await Promise.resolve();
    expect(appParseWorker()).not.toBe(appDescribeWorker());
    expect(made.map((w) => w.name).sort()).toEqual(['jql-describe', 'jql-parse']);
    expect(made.find((w) => w.name === 'jql-describe')!.received).toMatchObject([{ kind: 'describe' }]);
    expect(made.find((w) => w.name === 'jql-parse')!.received).toEqual([]);
  });
});
