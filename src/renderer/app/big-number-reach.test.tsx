// Numbers a double cannot hold (ids above 2^53, 20-digit integers) keep the digits the server sent
// wherever the console shows or saves a server's value (issue 31 item 4): the stream log, the empty
// result's conditions and an approved snapshot, not only the Table and the tree.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ServerTarget } from '../transport/jql-client.ts';
import type { HttpRequestSpec, HttpResult, Transport } from '../transport/transport.ts';
import { MAX_FRAME_BYTES, readStreamFrame, recordIdOf } from '../response/schema/stream-schema.ts';
import { appliedConditions, conditionsText } from '../features/envelope-viewer/empty-result.ts';
import { FakeStreamServer, flush } from '../features/stream-inspector/fake-stream-server.ts';
import { JsonTree } from '../features/stream-inspector/JsonTree.tsx';
import { compileLogQuery } from '../features/stream-inspector/log-query.ts';
import { toNdjson } from '../features/stream-inspector/ndjson.ts';
import { StreamSession } from '../features/stream-inspector/stream-session.ts';
import { createFoldersClient } from '../features/collection-folders/folders-client.ts';
import { approvedSnapshot } from './approved-snapshot.ts';

const ID = '9007199254740993';
const BIG = '12345678901234567890';

describe('big numbers in the stream log', () => {
  it('shows, searches and exports an event record by the digits sent', async () => {
    const server = new FakeStreamServer();
    const session = new StreamSession({ connect: server.connect, batch: false });
    const sub = session.addSubscription({ namespace: 'hostile.Thing' });
    session.connect();
    await flush();
    server.last.push({ type: 'subscribed', id: sub, seq: 0 });
    // Written as text: JSON.stringify of a number would already have lost the digits.
    server.last.push(`{"type":"event","subscription":"${sub}","event":"created","namespace":"hostile.Thing","seq":1,"at":"2026-01-01T00:00:00Z","record":{"id":${ID},"n":${BIG}}}`);
    server.last.push(`{"type":"event","subscription":"${sub}","event":"created","namespace":"hostile.Thing","seq":2,"at":"2026-01-01T00:00:00Z","record":{"id":9007199254740992,"n":1}}`);
    const events = session.log.entries().filter((e) => e.kind === 'event');
    expect(events.map((e) => e.kind === 'event' && e.recordId)).toEqual([ID, 9007199254740992]);
    const html = renderToStaticMarkup(<JsonTree value={events[0]!.kind === 'event' ? events[0]!.record : null} />);
    expect(html).toContain(`>${ID}<`);
    expect(html).toContain(`>${BIG}<`);
    expect(html).not.toContain('\uE000');
    expect(events.filter(compileLogQuery(`id:${ID}`)!)).toHaveLength(1);
    expect(events.filter(compileLogQuery(BIG)!)).toHaveLength(1);
    const ndjson = toNdjson(events);
    expect(ndjson).toContain(`"record":{"id":${ID},"n":${BIG}}`);
    expect(ndjson).toContain('"record":{"id":9007199254740992,"n":1}');
    session.dispose();
  });

  it('keeps the digits of the id of a summarized (oversized) event', () => {
    const frame = readStreamFrame(`{"type":"event","subscription":"s1","event":"created","namespace":"n.M","seq":1,"record":{"id":${ID},"body":"${'x'.repeat(MAX_FRAME_BYTES)}"}}`);
    expect(frame.type === 'event' && frame.summarized).toBeTruthy();
    expect(frame.type === 'event' && recordIdOf(frame.record)).toBe(ID);
    expect(toNdjson([{ kind: 'event', index: 0, receivedAt: 0, subscription: 's1', event: 'created', namespace: 'n.M', seq: 1, at: '', record: frame.type === 'event' ? frame.record : null, recordId: ID, replayed: false, bytes: 1, summarized: 'x' }])).toContain(`"record":{"id":${ID}}`);
  });
});

describe('big numbers in the empty result', () => {
  it('shows the filter it was asked with as typed', () => {
    const applied = appliedConditions(`{"__meta__":{"namespace":"a.B","intent":"retrieve","filter":{"id":${ID},"n__in":[${BIG},1]}}}`, null)!;
    expect(conditionsText(applied.entries)).toBe(`"filter": {\n  "id": ${ID},\n  "n__in": [\n    ${BIG},\n    1\n  ]\n}`);
  });
});

describe('big numbers in an approved snapshot', () => {
  it('sends the digits the server sent to the folder it is written to', async () => {
    const sent: HttpRequestSpec[] = [];
    const folder = { id: 'demo', name: 'Demo', version: 'v1', defaultEnvironment: null, environments: [], requests: [], problems: [] };
    const transport: Transport = {
      kind: 'browser',
      async send(request): Promise<HttpResult> {
        sent.push(request);
        return { status: 200, statusText: '', headers: {}, body: new TextEncoder().encode(JSON.stringify(folder)).buffer as ArrayBuffer, timeMs: 1 };
      },
    };
    const target: ServerTarget = { connectionId: 'embedded', baseUrl: 'http://127.0.0.1:8787', authClass: 'jwt', token: null, heldCredential: true };
    const raw = `{"__payload__":[{"id":${ID},"n":${BIG}},{"id":9007199254740992,"n":2}],"__message__":null,"__extras__":null,"__errors__":null,"__system__":{"queries":1},"__intent__":"retrieve"}`;
    await createFoldersClient(transport, () => target).writeSnapshot('demo', '01-list.jql.json', approvedSnapshot(raw, {}, []));
    const body = String(sent[0]!.body);
    expect(body).toContain(`{"id":${ID},"n":${BIG}}`);
    expect(body).toContain('{"id":9007199254740992,"n":2}');
    expect(body).not.toContain('\\ue000');
    expect(() => approvedSnapshot('<html>', {}, [])).toThrow(/not JSON/);
  });
});
