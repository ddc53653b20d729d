import { describe, expect, it } from 'vitest';
import { compareSnapshot, describeChanges, serializeSnapshot, snapshotOf, snapshotPathOf } from './snapshot.ts';

const envelope = (payload: unknown, extras: Record<string, unknown> = { filtered: 2, queries: 1 }) => ({
  __payload__: payload,
  __message__: null,
  __extras__: extras,
  __errors__: null,
  __system__: { queries: 1, time_ms: 3.2 },
  __intent__: 'retrieve',
});

describe('snapshots', () => {
  it('keep the envelope without __system__, keys sorted, in a stable file', () => {
    const a = snapshotOf(envelope([{ title: 'A', id: 1 }]));
    const b = snapshotOf({ __intent__: 'retrieve', __system__: { queries: 9, time_ms: 99 }, __errors__: null, __extras__: { queries: 1, filtered: 2 }, __message__: null, __payload__: [{ id: 1, title: 'A' }] });
    expect(serializeSnapshot(a)).toBe(serializeSnapshot(b));
    expect(serializeSnapshot(a)).not.toContain('__system__');
    expect(serializeSnapshot(a).endsWith('}\n')).toBe(true);
    // The flat shape is kept as the standard envelope, so a request's snapshot does not depend on it.
    const flat = snapshotOf({ status: 'OK', data: [{ id: 1, title: 'A' }], errors: null, extras: { filtered: 2, queries: 1 }, intent: 'retrieve', message: null, system_info: null });
    expect(flat).toEqual(a);
    expect(snapshotPathOf('errors/01-sign in.jql.json')).toBe('errors/01-sign in.snapshot.json');
  });

  it('match records by id and say which record and field changed, was added or removed', () => {
    const approved = snapshotOf(envelope([{ id: 1, title: 'A' }, { id: 2, title: 'B' }, { id: 3, title: 'C' }]));
    const actual = snapshotOf(envelope([{ id: 3, title: 'C' }, { id: 1, title: 'A!' }, { id: 4, title: 'D' }]));
    const changes = compareSnapshot(approved, actual);
    expect(changes).toEqual([
      { kind: 'changed', path: '$.__payload__[id=1].title', record: '1', approved: 'A', actual: 'A!' },
      { kind: 'removed', path: '$.__payload__[id=2]', record: '2', approved: { id: 2, title: 'B' } },
      { kind: 'added', path: '$.__payload__[id=4]', record: '4', actual: { id: 4, title: 'D' } },
    ]);
    expect(describeChanges(changes)).toBe('~ $.__payload__[id=1].title: "A" -> "A!"\n- $.__payload__[id=2]: {"id":2,"title":"B"}\n+ $.__payload__[id=4]: {"id":4,"title":"D"}');
    // The same records in another order are the same answer.
    expect(compareSnapshot(approved, snapshotOf(envelope([{ id: 3, title: 'C' }, { id: 2, title: 'B' }, { id: 1, title: 'A' }])))).toEqual([]);
  });

  it('leave ignored paths out of the file and of the comparison', () => {
    const ignore = ['$..created_at', '$.__extras__.queries'];
    const approved = snapshotOf(envelope([{ id: 1, created_at: '2026-01-01T00:00:00Z' }], { filtered: 1, queries: 1 }), { ignore });
    expect(JSON.stringify(approved)).not.toContain('created_at');
    expect(JSON.stringify(approved)).not.toContain('queries');
    const actual = snapshotOf(envelope([{ id: 1, created_at: '2027-05-05T00:00:00Z' }], { filtered: 1, queries: 7 }), { ignore });
    expect(compareSnapshot(approved, actual, { ignore })).toEqual([]);
    // An ignore added after approval applies to the approved file too.
    const older = snapshotOf(envelope([{ id: 1, created_at: 'x' }], { filtered: 1, queries: 1 }));
    expect(compareSnapshot(older, actual, { ignore })).toEqual([]);
  });

  it('take type-only matchers in the approved file, and refuse a value of another type', () => {
    const approved = { __payload__: [{ id: 'any:integer', at: 'any:datetime', day: 'any:date', n: 'any:number', ok: 'any:boolean', who: 'any' }] };
    expect(compareSnapshot(approved, { __payload__: [{ id: 12, at: '2026-11-28T10:00:00Z', day: '2026-11-28', n: 1.5, ok: false, who: null }] })).toEqual([]);
    const wrong = compareSnapshot(approved, { __payload__: [{ id: 1.5, at: 'yesterday', day: '2026-11-28T00:00:00Z', n: '1', ok: 0, who: 3 }] });
    expect(wrong.map((c) => c.path)).toEqual(['$.__payload__[0].id', '$.__payload__[0].at', '$.__payload__[0].day', '$.__payload__[0].n', '$.__payload__[0].ok']);
  });

  it('never hold a secret or a captured credential: each is written as its variable', () => {
    const snapshot = snapshotOf(envelope({ token: 'eyJ.secret-token.sig', note: 'password is hunter22!' }), {}, [
      { variable: 'adminToken', value: 'eyJ.secret-token.sig' },
      { variable: 'adminPassword', value: 'hunter22!' },
    ]);
    const text = serializeSnapshot(snapshot);
    expect(text).not.toContain('secret-token');
    expect(text).not.toContain('hunter22');
    expect(text).toContain('{{adminToken}}');
    expect(text).toContain('password is {{adminPassword}}');
  });
});
