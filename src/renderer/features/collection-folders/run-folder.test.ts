import { describe, expect, it } from 'vitest';
import type { RunnableRequest } from '../../../shared/collections/run.ts';
import type { HttpRequestSpec, Transport } from '../../transport/transport.ts';
import { runFolder } from './run-folder.ts';

const request = (name: string, document: string, captures: RunnableRequest['file']['captures'] = []): RunnableRequest => ({
  path: `${name}.jql.json`,
  name,
  file: { document, options: {}, assertions: [], captures, tags: [] },
});

/** A transport that keeps the bodies sent and answers each with the given text. */
function recordingTransport(answer: string): { transport: Transport; bodies: Array<string | undefined> } {
  const bodies: Array<string | undefined> = [];
  const transport: Transport = {
    kind: 'browser',
    send: async (spec: HttpRequestSpec) => {
      bodies.push(spec.body);
      return { status: 200, statusText: 'OK', headers: {}, body: new TextEncoder().encode(answer).buffer as ArrayBuffer, timeMs: 1 };
    },
  };
  return { transport, bodies };
}

describe('runFolder: 64-bit ids in saved requests', () => {
  it('sends them, and a captured one, as the digits written, not rounded to another record', async () => {
    const { transport, bodies } = recordingTransport('{"__payload__": {"id": 12345678901234567890}}');
    const run = await runFolder({
      requests: [
        request('first', '{"tickets.Ticket": {"__meta__": {"filter": {"id": 9007199254740993}}}}', [{ variable: 'id', path: '$.__payload__.id' }]),
        request('second', '{"tickets.Ticket": {"__meta__": {"filter": {"id": "{{id}}"}}}}'),
      ],
      variables: {},
      target: { connectionId: 'c', baseUrl: 'http://127.0.0.1:1', authClass: 'jwt', token: null },
      connection: { name: 'Local', deployment: 'local', readOnly: false },
      describe: null,
      transport,
    });
    expect(run).toMatchObject({ report: { passed: 2, failed: 0 } });
    expect(bodies).toEqual(['{"tickets.Ticket":{"__meta__":{"filter":{"id":9007199254740993}}}}', '{"tickets.Ticket":{"__meta__":{"filter":{"id":12345678901234567890}}}}']);
  });
});
