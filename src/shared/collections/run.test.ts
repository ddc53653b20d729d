import { describe, expect, it } from 'vitest';
import { stringifyKeepingNumbers } from '../big-number.ts';
import type { JsonValue } from '../protocol.ts';
import { parseVariableValue } from '../variables.ts';
import type { RequestFile } from './format.ts';
import { runRequests, type OutgoingRequest, type RunnableRequest } from './run.ts';

const file = (document: string, over: Partial<RequestFile> = {}): RequestFile => ({ document, options: {}, assertions: [], captures: [], tags: [], ...over });
const req = (name: string, f: RequestFile): RunnableRequest => ({ path: `${name}.jql.json`, name, file: f });

describe('runRequests', () => {
  it('fills variables from the environment and from captures, in order, and sends captured bearer tokens', async () => {
    const sent: OutgoingRequest[] = [];
    const report = await runRequests(
      [
        req('login', file('{"username": "{{user}}"}', { captures: [{ variable: 'token', path: '$.__payload__.token' }] })),
        req('create', file('{"name": "n"}', { options: { bearer: '{{token}}' }, captures: [{ variable: 'id', path: '$.__payload__.id' }] })),
        req('read', file('{"id": "{{id}}", "limit": {{limit}}}', { assertions: [{ target: 'status', op: 'eq', value: 200 }] })),
      ],
      {
        variables: { user: 'ann', limit: 5 },
        send: async (request) => {
          sent.push(request);
          const payload: JsonValue = sent.length === 1 ? { token: 't-1' } : { id: 42 };
          return { status: 200, body: { __payload__: payload }, roundTripMs: 1 };
        },
      },
    );
    expect(sent.map((s) => s.document)).toEqual([{ username: 'ann' }, { name: 'n' }, { id: 42, limit: 5 }]);
    expect(sent[1]?.bearer).toBe('t-1');
    expect(report).toMatchObject({ passed: 3, failed: 0, skipped: 0 });
  });

  it('fails a request whose variable is unknown or whose document is not JSON, without sending it', async () => {
    let sends = 0;
    const report = await runRequests([req('a', file('{"x": {{nope}}}')), req('b', file('{"x": '))], {
      variables: {},
      send: async () => {
        sends++;
        return { status: 200, body: {}, roundTripMs: 1 };
      },
    });
    expect(sends).toBe(0);
    expect(report.results.map((r) => r.error)).toEqual([expect.stringContaining('{{nope}} is not defined'), expect.stringContaining('is not JSON once its variables are filled')]);
  });

  it('stops at the first failure with bail, and counts the rest as skipped', async () => {
    const report = await runRequests(
      [req('a', file('{}', { assertions: [{ target: 'status', op: 'eq', value: 201 }] })), req('b', file('{}')), req('c', file('{}'))],
      { variables: {}, bail: true, send: async () => ({ status: 200, body: {}, roundTripMs: 1 }) },
    );
    expect(report).toMatchObject({ passed: 0, failed: 1, skipped: 2 });
  });

  it('reports a request that got no answer with the reason', async () => {
    const report = await runRequests([req('a', file('{}'))], { variables: {}, send: async () => ({ status: 0, body: undefined, roundTripMs: 2, error: 'ECONNREFUSED' }) });
    expect(report.results[0]).toMatchObject({ passed: false, status: 0, error: 'ECONNREFUSED' });
  });
});

describe('runRequests with numbers a double cannot hold (64-bit ids)', () => {
  const sentText = (request: OutgoingRequest | undefined): string => stringifyKeepingNumbers(request?.document);

  it('sends a saved request\'s 64-bit ids as their digits, not rounded to another id', async () => {
    const sent: OutgoingRequest[] = [];
    await runRequests([req('read', file('{"filter": {"id": 9007199254740993, "ref": 12345678901234567890}}'))], {
      variables: {},
      send: async (request) => {
        sent.push(request);
        return { status: 200, body: {}, roundTripMs: 1 };
      },
    });
    expect(sentText(sent[0])).toBe('{"filter":{"id":9007199254740993,"ref":12345678901234567890}}');
  });

  it('fills a captured 64-bit id into a later request with its digits, and from the environment too', async () => {
    const sent: OutgoingRequest[] = [];
    const answer = '{"__payload__": {"id": 9007199254740993}}';
    const report = await runRequests(
      [
        req('create', file('{}', { captures: [{ variable: 'id', path: '$.__payload__.id' }] })),
        req('read', file('{"filter": {"id": "{{id}}", "ref": {{ref}}}, "label": "case {{id}}"}', { assertions: [{ target: 'status', op: 'eq', value: 200 }] })),
      ],
      {
        variables: { ref: parseVariableValue('12345678901234567890') },
        send: async (request) => {
          sent.push(request);
          return { status: 200, body: JSON.parse(answer) as JsonValue, text: answer, roundTripMs: 1 };
        },
      },
    );
    expect(sentText(sent[1])).toBe('{"filter":{"id":9007199254740993,"ref":12345678901234567890},"label":"case 9007199254740993"}');
    expect(report).toMatchObject({ passed: 2, failed: 0 });
  });
});
