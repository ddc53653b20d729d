/**
 * The clone's view of a source: base URLs without credentials, Retry-After read either way, and a
 * source that does not page as asked cannot keep the clone fetching forever.
 */
import { describe, expect, it } from 'vitest';
import { fetchBatches, type IncompleteRead } from './batch-fetch.ts';
import { readCloneQuery } from './clone-jobs.ts';
import { rootQueries } from './query-roots.ts';
import { checkBaseUrl, CloneCancelledError, RemoteError, RemoteServer, retryAfterMs, type FetchLike } from './remote-server.ts';

describe('RemoteServer', () => {
  it('takes a base URL without credentials, query or fragment', () => {
    expect(checkBaseUrl('https://support.example/api/')).toBe('https://support.example/api');
    expect(() => checkBaseUrl('https://me:secret@support.example')).toThrow(/holds credentials/);
    expect(() => checkBaseUrl('https://support.example/?token=x')).toThrow(RemoteError);
    expect(() => checkBaseUrl('file:///etc/passwd')).toThrow(/http: or https:/);
  });

  it('reads Retry-After in seconds or as a date, and backs off without one', () => {
    expect(retryAfterMs('3', 0)).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 0, 4000)).toBe(6000);
    expect(retryAfterMs(null, 0)).toBe(1000);
    expect(retryAfterMs(null, 3)).toBe(8000);
  });

  it('gives up on a Retry-After longer than it may wait, and stops waiting when cancelled', async () => {
    const limited: FetchLike = async () => new Response('{}', { status: 429, headers: { 'retry-after': '3600' } });
    await expect(new RemoteServer({ baseUrl: 'http://127.0.0.1:9', fetch: limited }).post({})).rejects.toThrow(/asks to wait 3600 s/);
    const controller = new AbortController();
    const waiting = new RemoteServer({ baseUrl: 'http://127.0.0.1:9', fetch: async () => new Response('{}', { status: 429, headers: { 'retry-after': '30' } }), signal: controller.signal }).post({});
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toThrow(CloneCancelledError);
  });

  it('caps the time spent waiting out 429s, all waits together, and says so (issue 32.4)', async () => {
    let calls = 0;
    const limited: FetchLike = async () => (calls++, new Response('{}', { status: 429, headers: { 'retry-after': '1' } }));
    const remote = new RemoteServer({ baseUrl: 'http://127.0.0.1:9', fetch: limited, maxTotalWaitMs: 1500 });
    const started = Date.now();
    await expect(remote.post({})).rejects.toThrow(/kept rate limiting: waiting 1 s more would pass the 2 s allowed for all waits/);
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('never sends the token to a file URL on another origin', async () => {
    const seen: string[] = [];
    const remote = new RemoteServer({ baseUrl: 'http://127.0.0.1:9/api', token: 't0ken', fetch: async (url) => (seen.push(url), new Response('x')) });
    await expect(remote.download('https://elsewhere.example/jql/files/a')).rejects.toThrow(/another server/);
    await remote.download('/api/jql/files/abc');
    expect(seen).toEqual(['http://127.0.0.1:9/api/jql/files/abc']);
  });

  it('stops a read whose pages do not move on, however large the total it claims', async () => {
    let calls = 0;
    const same: FetchLike = async () => {
      calls += 1;
      return new Response(JSON.stringify({ __payload__: { q0: { data: [{ id: 1 }, { id: 2 }], extras: { filtered: 1_000_000 }, errors: null } }, __errors__: null }));
    };
    const pages: number[] = [];
    const incomplete: IncompleteRead[] = [];
    const failures = await fetchBatches(new RemoteServer({ baseUrl: 'http://127.0.0.1:9', fetch: same }), [{ namespace: 'a.B', schema: 'model', label: 'a.B' }], {
      pageSize: 2,
      perRequest: 4,
      onPage: (_spec, records) => (pages.push(records.length), true),
      onIncomplete: (report) => incomplete.push(report),
    });
    expect(failures).toEqual([]);
    expect(calls).toBe(2);
    expect(pages).toEqual([2, 2]);
    // And it says so: the read is partial, not done (issue 32.9).
    expect(incomplete.map(({ reason, copied, sourceSaid }) => ({ reason, copied, sourceSaid }))).toEqual([{ reason: 'the source repeated ids on page 2 (ids 1-2 again)', copied: 2, sourceSaid: 1_000_000 }]);
  });

  it('asks the source for a 64-bit id of the query\'s filter by its digits, not another record (issue 31 item 4)', async () => {
    const bodies: string[] = [];
    const recording: FetchLike = async (_url, init) => {
      bodies.push(String(init?.body));
      return new Response(JSON.stringify({ __payload__: { q0: { data: [], extras: { filtered: 0 }, errors: null } }, __errors__: null }));
    };
    // The query as "Reproduce locally" sends it: the tab's text.
    const text = '{"__meta__": {"namespace": "a.B", "intent": "retrieve", "filter": {"id__in": [9007199254740993, 12345678901234567890]}}}';
    const query = readCloneQuery({ url: 'http://127.0.0.1:9', token: null, query: text, depth: 0, withFiles: false, redact: [], name: 'Copy' });
    const [root] = rootQueries(query);
    await fetchBatches(new RemoteServer({ baseUrl: 'http://127.0.0.1:9', fetch: recording }), [{ ...root!, label: 'a.B' }], { pageSize: 10, perRequest: 1, onPage: () => true, onIncomplete: () => undefined });
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContain('"filter":{"id__in":[9007199254740993,12345678901234567890]}');
  });

  it('refuses a clone request whose query is not the document\'s text, or not JSON', () => {
    const request = { url: 'http://127.0.0.1:9', token: null, depth: 0, withFiles: false, redact: [], name: 'Copy' };
    expect(() => readCloneQuery({ ...request, query: { __meta__: {} } as unknown as string })).toThrow(/query document's text/);
    expect(() => readCloneQuery({ ...request, query: '{"__meta__": ' })).toThrow(/"query" is not valid JSON/);
  });
});
