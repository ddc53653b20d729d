import { describe, expect, it } from 'vitest';
import type { DescribeResult } from '../../shared/protocol.ts';
import { ConnectionsStore, EMBEDDED_ID } from '../state/connections-store.ts';
import { memoryStorage } from '../state/external-store.ts';
import type { Platform } from '../state/platform.ts';
import { createMemorySecretStore } from '../state/secret-store.ts';
import type { HttpRequestSpec } from '../transport/transport.ts';
import { explainsAsOthers, isSingleRetrieve, recordExplainer } from './explain-record.ts';

const RETRIEVE = '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "filter": {"id__in": [9007199254740993]}}, "title": null}';
const BOTH = { extensions: ['seeAs', 'whyNot'] } as unknown as DescribeResult;

function setup(answer: string) {
  const connections = new ConnectionsStore(memoryStorage(), createMemorySecretStore());
  connections.setEmbedded('http://127.0.0.1:9', { localAdmin: true, token: 'tok' });
  const sent: HttpRequestSpec[] = [];
  const platform = {
    transport: {
      kind: 'browser',
      async send(req: HttpRequestSpec) {
        sent.push(req);
        return { status: 200, statusText: 'OK', headers: {}, body: new TextEncoder().encode(answer).buffer as ArrayBuffer, timeMs: 3 };
      },
    },
  } as unknown as Platform;
  return { services: { connections, platform }, sent };
}

const run = (body: string | undefined) => ({ request: { connectionId: EMBEDDED_ID, url: 'http://127.0.0.1:9/jql', method: 'POST' as const, headers: {}, body, withCredentials: false } });

describe('"why can\'t a user see this record?" from the Query view', () => {
  it('runs the answer\'s document again as the user, with whyNot for the row, and reads the reasons', async () => {
    const { services, sent } = setup(
      '{"__payload__": {"visible": false, "user": "agent", "reasons": [{"rule": "row_scope", "message": "outside agent\'s row scope"}]}, "__errors__": null}',
    );
    const explain = recordExplainer(services, () => BOTH, run(RETRIEVE));
    expect(explain).not.toBeNull();
    const answer = await explain!('agent', 12);
    expect(answer).toEqual({ visible: false, user: 'agent', reasons: [{ rule: 'row_scope', message: "outside agent's row scope" }] });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers).toMatchObject({ Authorization: 'Bearer tok' });
    const body = sent[0]!.body!;
    // The document's own digits stay (a 64-bit id is not rounded by a JSON round trip).
    expect(body).toContain('9007199254740993');
    const meta = (JSON.parse(body) as { __meta__: Record<string, unknown> }).__meta__;
    expect(meta).toMatchObject({ namespace: 'tickets.Ticket', intent: 'retrieve', seeAs: 'agent', whyNot: { id: 12 } });
  });

  it('shows the server\'s refusal as a failure, not as "no rule"', async () => {
    const { services } = setup('{"__payload__": null, "__errors__": [{"code": "forbidden", "message": "see as needs an admin"}]}');
    const answer = await recordExplainer(services, () => BOTH, run(RETRIEVE))!('viewer', 1);
    expect(answer).toEqual({ failure: 'see as needs an admin' });
  });

  it('is offered only for a single-query retrieve on a connection declaring both seeAs and whyNot', () => {
    const { services } = setup('{}');
    expect(recordExplainer(services, () => ({ extensions: ['whyNot'] }) as unknown as DescribeResult, run(RETRIEVE))).toBeNull();
    expect(recordExplainer(services, () => null, run(RETRIEVE))).toBeNull();
    expect(recordExplainer(services, () => BOTH, run('{"a": {"__meta__": {"namespace": "x.Y", "intent": "retrieve"}}}'))).toBeNull();
    expect(recordExplainer(services, () => BOTH, run('{"__meta__": {"namespace": "x.Y", "intent": "count"}}'))).toBeNull();
    expect(recordExplainer(services, () => BOTH, run(undefined))).toBeNull();
  });

  it('reads the pieces it decides on', () => {
    expect(isSingleRetrieve('{"__meta__": {"intent": "retrieve"}}')).toBe(true);
    expect(isSingleRetrieve('{"__meta__": {"intent": "update"}}')).toBe(false);
    expect(isSingleRetrieve('not json')).toBe(false);
    expect(isSingleRetrieve('[1]')).toBe(false);
    expect(explainsAsOthers(BOTH)).toBe(true);
    expect(explainsAsOthers(undefined)).toBe(false);
  });
});
