// The collection folders' answers go through the parsing boundary (response/schema) like every other
// server answer: a request file that a folder on disk could not hold is left out and said among the
// folder's problems, server text is cleaned, and an answer of another shape is an error, not data.
import { describe, expect, it } from 'vitest';
import type { ServerTarget } from '../../transport/jql-client.ts';
import type { HttpRequestSpec, HttpResult, Transport } from '../../transport/transport.ts';
import { createFoldersClient } from './folders-client.ts';

const target: ServerTarget = { connectionId: 'embedded', baseUrl: 'http://127.0.0.1:8787', authClass: 'jwt', token: null, heldCredential: true };

function answering(status: number, body: unknown): Transport & { sent: HttpRequestSpec[] } {
  const sent: HttpRequestSpec[] = [];
  return {
    kind: 'browser',
    sent,
    async send(request): Promise<HttpResult> {
      sent.push(request);
      const bytes = new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body));
      return { status, statusText: '', headers: {}, body: bytes.buffer as ArrayBuffer, timeMs: 1 };
    },
  };
}

const good = { document: '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve"}}', options: {}, assertions: [{ target: 'status', op: 'eq', value: 200 }], captures: [], tags: [] };

describe('folders client', () => {
  it('reads a folder, leaving out what a request file cannot be and saying so', async () => {
    const client = createFoldersClient(
      answering(200, {
        id: 'demo',
        name: 'Demo\u202e folder',
        version: 'v1',
        defaultEnvironment: null,
        environments: [{ name: 'local', variables: { base: 1 }, secrets: ['token'] }, 'junk'],
        requests: [
          { path: '01-list.jql.json', name: 'List', file: good },
          { path: '02-bad.jql.json', name: 'Bad op', file: { ...good, assertions: [{ target: 'status', op: 'explode', value: 1 }] } },
          { path: '03-bad.jql.json', name: 'No document', file: { ...good, document: 42 } },
          { path: '04-bad.jql.json', name: 'Script', file: { ...good, script: 'fetch("http://evil")' } },
        ],
        problems: ['one file could not be read'],
      }),
      () => target,
    );
    const folder = await client.read('demo');
    expect(folder.name).toBe('Demo folder');
    expect(folder.requests.map((r) => r.name)).toEqual(['List']);
    expect(folder.requests[0]?.file).toEqual(good);
    expect(folder.environments).toEqual([{ name: 'local', variables: { base: 1 }, secrets: ['token'] }]);
    expect(folder.problems[0]).toBe('one file could not be read');
    expect(folder.problems.slice(1).join('\n')).toMatch(/requests\[1\].*requests\[2\].*requests\[3\]/s);
    expect(folder.problems.join('\n')).toMatch(/environments\[1\]/);
  });

  it('lists folders and refuses an answer of another shape', async () => {
    expect(await createFoldersClient(answering(200, { collections: [{ id: '.', name: 'Root' }] }), () => target).list()).toEqual([{ id: '.', name: 'Root' }]);
    await expect(createFoldersClient(answering(200, '<html>hello</html>'), () => target).list()).rejects.toThrow(/did not answer its list of collection folders/);
    await expect(createFoldersClient(answering(200, [1, 2]), () => target).read('x')).rejects.toThrow(/did not answer the collection folder/);
    await expect(createFoldersClient(answering(200, { imported: 'all' }), () => target).importExport('{}')).resolves.toEqual([]);
  });

  it('says the server\'s own error message, cleaned', async () => {
    const refused = createFoldersClient(answering(403, { __payload__: null, __errors__: [{ code: 'forbidden', message: 'Collection folders are for the local admin\u0007' }] }), () => target);
    const error = (await refused.read('x').catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(/^Collection folders are for the local admin/);
    expect(error.message).not.toContain('\u0007');
  });
});
