import { describe, expect, it } from 'vitest';
import { ConnectionsStore, EMBEDDED_ID } from '../state/connections-store.ts';
import { memoryStorage } from '../state/external-store.ts';
import type { Platform } from '../state/platform.ts';
import { RunLog, type RunRecord } from '../state/run-log.ts';
import { createMemorySecretStore } from '../state/secret-store.ts';
import { NetworkError, type HttpRequestSpec } from '../transport/transport.ts';
import { explainSide, runSide } from './run-diff-side.ts';

function setup(answer: (req: HttpRequestSpec) => Promise<{ status: number; body: string }>) {
  const connections = new ConnectionsStore(memoryStorage(), createMemorySecretStore());
  connections.setEmbedded('http://127.0.0.1:9', { localAdmin: true, token: 'tok' });
  const sent: HttpRequestSpec[] = [];
  const platform = {
    transport: {
      kind: 'browser',
      async send(req: HttpRequestSpec) {
        sent.push(req);
        const { status, body } = await answer(req);
        return { status, statusText: 'OK', headers: {}, body: new TextEncoder().encode(body).buffer as ArrayBuffer, timeMs: 7 };
      },
    },
  } as unknown as Platform;
  const runLog = new RunLog();
  const recorded: RunRecord[] = [];
  runLog.subscribe((r) => recorded.push(r));
  return { services: { connections, platform, runLog }, sent, recorded };
}

describe('runSide (one side of a diff)', () => {
  it("runs the document on the connection with its credentials, reads either envelope shape, and records the run", async () => {
    const { services, sent, recorded } = setup(async () => ({ status: 200, body: '{"__payload__": [{"id": 1}], "__errors__": null, "__intent__": "retrieve"}' }));
    const side = await runSide(services, { connectionId: EMBEDDED_ID }, '{"__meta__": {}}', () => 50);
    expect(sent[0]).toMatchObject({ url: 'http://127.0.0.1:9/jql?query_info_level=1', headers: { Authorization: 'Bearer tok' }, body: '{"__meta__": {}}' });
    expect(side).toMatchObject({ label: 'Embedded server', status: 200, timeMs: 7, failure: null });
    expect(side.view?.sections[0]?.payload).toEqual([{ id: 1 }]);
    expect(recorded).toMatchObject([{ connection: { id: EMBEDDED_ID, name: 'Embedded server' }, document: '{"__meta__": {}}', outcome: { kind: 'answered', status: 200 }, at: 50 }]);
  });

  it('sends 64-bit ids as the digits typed, also when it adds seeAs or whyNot to the text (issue 31 item 4)', async () => {
    const { services, sent } = setup(async () => ({ status: 200, body: '{"__payload__": [], "__errors__": null}' }));
    const document = '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "filter": {"id__in": [9007199254740993, 12345678901234567890]}}}';
    await runSide(services, { connectionId: EMBEDDED_ID }, document);
    await runSide(services, { connectionId: EMBEDDED_ID, seeAs: 'ann' }, document);
    await explainSide(services, { connectionId: EMBEDDED_ID }, document, null, 7);
    expect(sent).toHaveLength(3);
    // seeAs and whyNot are added by editing the text, which may re-indent it but keeps its digits.
    const bodies = sent.map((request) => request.body?.replace(/\s/g, ''));
    for (const body of bodies) expect(body).toContain('"id__in":[9007199254740993,12345678901234567890]');
    expect(bodies[1]).toContain('"seeAs":"ann"');
    expect(bodies[2]).toContain('"whyNot":{"id":7}');
  });

  it('turns no answer into a failed side, also recorded', async () => {
    const { services, recorded } = setup(async () => {
      throw new NetworkError('Could not reach it');
    });
    const side = await runSide(services, { connectionId: EMBEDDED_ID }, '{}');
    expect(side).toMatchObject({ status: 0, failure: 'Could not reach it', view: null });
    expect(recorded[0]?.outcome).toMatchObject({ kind: 'failed', message: 'Could not reach it' });
    await expect(runSide(services, { connectionId: 'gone' }, '{}')).resolves.toMatchObject({ failure: 'The connection is gone.' });
  });

  it('never sends a write, whatever the connection: the side says why and nothing is recorded', async () => {
    const { services, sent, recorded } = setup(async () => ({ status: 200, body: '{}' }));
    const del = '{"__meta__": {"namespace": "tickets.Ticket", "intent": "delete", "uniqueObject": {"id": 5}}}';
    const side = await runSide(services, { connectionId: EMBEDDED_ID }, del);
    expect(side).toMatchObject({ status: 0, failure: 'Diff never writes: this document deletes tickets.Ticket records, so it is not sent to either side.' });
    const multi = JSON.stringify({ a: { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve' } }, b: JSON.parse(del) });
    expect((await runSide(services, { connectionId: EMBEDDED_ID }, multi)).failure).toContain('Diff never writes');
    expect(sent).toEqual([]);
    expect(recorded).toEqual([]);
  });

  it("runs as another identity on the same connection: its token, or none, without the connection's credential", async () => {
    const { services, sent } = setup(async () => ({ status: 200, body: '{"__payload__": [], "__errors__": null}' }));
    await runSide(services, { connectionId: EMBEDDED_ID, label: 'Embedded server as viewer', token: 'viewer-token' }, '{"__meta__": {}}');
    await runSide(services, { connectionId: EMBEDDED_ID, label: 'Embedded server as anyone', token: null }, '{"__meta__": {}}');
    expect(sent[0]).toMatchObject({ connectionId: EMBEDDED_ID, url: 'http://127.0.0.1:9/jql?query_info_level=1', headers: { Authorization: 'Bearer viewer-token' }, withCredentials: false });
    // In the desktop app main adds nothing to these (no connectionCredentials) and uses no cookie jar.
    expect(sent[0]?.connectionCredentials).toBeUndefined();
    expect(sent[1]?.headers.Authorization).toBeUndefined();
    expect(sent[1]?.connectionCredentials).toBeUndefined();
  });
});
