import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untracked } from '../db/sql-session.ts';
import { testApp, type TestApp } from '../testing/fixture.ts';
import { EventLog } from './event-log.ts';
import { ADMIN, ADMIN_ENV, item, writeStreamsWorkspace } from '../testing/streams-workspace.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await testApp({ workspace: writeStreamsWorkspace({ maxStreamEvents: 5 }), env: ADMIN_ENV });
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(() => t.close());

interface Row {
  seq: number;
  namespace: string;
  schema: string;
  event: string;
  record_id: number | null;
  payload: string;
}
const writer = () => untracked(t.state.db.committedWriter());
const rows = (): Row[] => writer().all('SELECT seq, namespace, schema, event, record_id, payload FROM jql_events ORDER BY seq') as unknown as Row[];
const last = (): Row => rows().at(-1) as Row;

describe('the event log', () => {
  it('appends one row per committed mutation with a snapshot of the readable columns', async () => {
    const created = (await t.post(item('create', { name: 'lamp', price: 12, secret: 'hush' }))).body.__payload__;
    const row = last();
    expect(row).toMatchObject({ namespace: 'shop.Item', schema: 'model', event: 'created', record_id: created.id });
    expect(JSON.parse(row.payload)).toEqual({ row: { id: created.id, name: 'lamp', price: 12, blurb: null, category: null, unique_code: null } });
    expect(row.payload).not.toContain('hush');
  });

  it('keeps the row as it was before a delete', async () => {
    const { id } = (await t.post(item('create', { name: 'doomed', price: 1 }))).body.__payload__;
    await t.post(item('delete', {}, { uniqueObject: { id } }));
    expect(last()).toMatchObject({ event: 'deleted', record_id: id });
    expect(JSON.parse(last().payload).row).toMatchObject({ id, name: 'doomed', price: 1 });
    expect(writer().get('SELECT count(*) AS n FROM temp.jql_deleted_rows')).toEqual({ n: 0 });
    const doc = (await t.post({ __meta__: { namespace: 'chat.Message', schema: 'nosql', intent: 'create' }, text: 'bye' }, { token: admin })).body.__payload__;
    await t.post({ __meta__: { namespace: 'chat.Message', schema: 'nosql', intent: 'delete', uniqueObject: { id: doc.id } } }, { token: admin });
    expect(last()).toMatchObject({ namespace: 'chat.Message', schema: 'nosql', event: 'deleted', record_id: doc.id });
    expect(JSON.parse(JSON.parse(last().payload).row.body)).toEqual({ text: 'bye' });
  });

  it('leaves nothing for rolled-back writes', async () => {
    const before = last().seq;
    await t.post(item('create', { name: 'unique', unique_code: 'U' }));
    await t.post({ __root_meta__: { atomic: true }, a: item('create', { name: 'undone' }), b: item('create', { name: 'dup', unique_code: 'U' }) });
    await t.post({ __meta__: { namespace: 'shop.Tools', schema: 'controller', intent: 'fail' }, name: 'ghost' });
    await t.post(item('create', { name: 'dup again', unique_code: 'U' }));
    expect(rows().filter((r) => r.seq > before).map((r) => JSON.parse(r.payload).row.name)).toEqual(['unique']);
  });

  it('keeps only the last maxStreamEvents rows', async () => {
    for (let i = 0; i < 8; i++) await t.post(item('create', { name: `n${i}` }));
    const kept = rows();
    expect(kept).toHaveLength(5);
    expect(kept.map((r) => JSON.parse(r.payload).row.name)).toEqual(['n3', 'n4', 'n5', 'n6', 'n7']);
  });

  it('reads at most the limit asked for, oldest first, and takes only a positive whole number as one', async () => {
    for (let i = 0; i < 4; i++) await t.post(item('create', { name: `r${i}` }));
    const log = new EventLog(t.state.ws);
    const all = rows();
    const from = (all[0] as Row).seq - 1;
    const upTo = (all.at(-1) as Row).seq;
    expect(log.read(writer(), from, upTo, 2).map((e) => e.seq)).toEqual(all.slice(0, 2).map((r) => r.seq));
    expect(log.read(writer(), from, upTo, 100, 'shop.Item').map((e) => e.seq)).toEqual(all.map((r) => r.seq));
    // The limit is written into the statement's text: nothing but a whole number may get there.
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1; DROP TABLE jql_events' as unknown as number]) {
      expect(() => log.read(writer(), from, upTo, bad)).toThrow(RangeError);
    }
    expect(rows()).toHaveLength(all.length);
  });
});
