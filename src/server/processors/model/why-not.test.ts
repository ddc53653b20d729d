// "Why not" (docs/protocol.md "Why not"): each rule that keeps a record out of a user's answer, named
// with the values that decide it.
import { describe, expect, it } from 'vitest';
import { REACH_ADMIN, seededReachServer } from '../../testing/reach-workspace.ts';

describe('whyNot', () => {
  const seeded = seededReachServer();

  async function why(user: string, meta: Record<string, unknown>, id: number) {
    const res = await seeded.t.post({ __meta__: { intent: 'retrieve', seeAs: user, whyNot: { id }, ...meta } }, { token: seeded.admin });
    expect(res.status).toBe(200);
    expect(res.body.__intent__).toBe('whyNot');
    return res.body.__payload__;
  }

  it('names the row scope, the field and the two values', async () => {
    const borealis = seeded.ids.projects[1] as number;
    const answer = await why('alice', { namespace: 'work.Project' }, borealis);
    expect(answer).toMatchObject({ namespace: 'work.Project', id: borealis, user: 'alice', visible: false });
    expect(answer.reasons).toHaveLength(1);
    expect(answer.reasons[0]).toMatchObject({
      rule: 'row_scope',
      alternatives: [{ scope: { owner: seeded.ids.users.alice }, failing: [{ field: 'owner', needs: seeded.ids.users.alice, has: seeded.ids.users.bob }] }],
    });
    expect(answer.reasons[0].message).toBe(`The record is outside alice's row scope of work.Project: it needs owner = ${seeded.ids.users.alice}, the record has ${seeded.ids.users.bob}`);
  });

  it('names the roles a user lacks for the model', async () => {
    const answer = await why('dave', { namespace: 'work.Project' }, seeded.ids.projects[0] as number);
    expect(answer.reasons).toEqual([
      { rule: 'permission', message: 'dave (roles: none) may not retrieve work.Project: it needs one of the roles member, auditor', model: 'work.Project', needs: ['member', 'auditor'], has: [] },
    ]);
  });

  it('names a reference path into a model the user may not read at all', async () => {
    const answer = await why('carol', { namespace: 'work.Task', filter: { project__client__name: 'Acme' } }, 1);
    expect(answer.visible).toBe(false);
    expect(answer.reasons).toEqual([
      {
        rule: 'reference_path',
        message: 'The query reaches work.Client through a reference, and carol (roles: auditor) may not retrieve work.Client: it needs one of the roles member',
        model: 'work.Client',
        needs: ['member'],
        has: ['auditor'],
      },
    ]);
    // The same query is refused when run, with the error the explanation stands for.
    const run = await seeded.t.post({ __meta__: { namespace: 'work.Task', intent: 'retrieve', seeAs: 'carol', filter: { project__client__name: 'Acme' } } }, { token: seeded.admin });
    expect(run.status).toBe(403);
  });

  it('names a reference that reads as missing because its record is outside the row scope of its model', async () => {
    // Task 2 belongs to Cygnus (alice's), whose client Globex is silver: outside alice's client scope.
    const task = 3;
    const answer = await why('alice', { namespace: 'work.Task', filter: { project__client__tier: 'silver' } }, task);
    expect(answer.reasons).toEqual([
      {
        rule: 'reference_path',
        message: 'filter "project__client__tier" reads through a reference to a record outside your row scope of its model, which reads as missing',
        entry: 'project__client__tier',
        expected: 'silver',
        actual: 'silver',
      },
    ]);
    // The seeded.admin, who reaches every client, gets that task.
    const asAdmin = await seeded.t.post({ __meta__: { namespace: 'work.Task', intent: 'retrieve', whyNot: { id: task }, filter: { project__client__tier: 'silver' } } }, { token: seeded.admin });
    expect(asAdmin.body.__payload__).toMatchObject({ visible: true, reasons: [], user: REACH_ADMIN.username });
  });

  it("names the query's own filter and exclude entries, and a record that does not exist", async () => {
    const answer = await why('carol', { namespace: 'work.Project', filter: { budget__gte: 200, name__startswith: 'A' }, exclude: { owner__username: 'alice' } }, seeded.ids.projects[0] as number);
    expect(answer.reasons.map((r: { rule: string }) => r.rule)).toEqual(['filter', 'exclude']);
    expect(answer.reasons[0]).toMatchObject({ entry: 'budget__gte', expected: 200, actual: 100 });
    expect(answer.reasons[0].message).toBe('filter "budget__gte" does not match: the record has 100, the filter asks 200');
    expect(answer.reasons[1]).toMatchObject({ entries: { owner__username: 'alice' } });
    const missing = await why('carol', { namespace: 'work.Project' }, 9999);
    expect(missing).toMatchObject({ visible: false, reasons: [{ rule: 'not_found', message: 'There is no work.Project with id 9999' }] });
  });

  it('finds no rule for a record in the answer', async () => {
    const answer = await why('bob', { namespace: 'work.Project', filter: { budget: 250 } }, seeded.ids.projects[1] as number);
    expect(answer).toMatchObject({ visible: true, reasons: [] });
  });

  it('refuses whyNot outside a retrieve, and in a shape it does not take', async () => {
    const count = await seeded.t.post({ __meta__: { namespace: 'work.Project', intent: 'count', whyNot: { id: 1 } } }, { token: seeded.admin });
    expect(count.status).toBe(400);
    const bad = await seeded.t.post({ __meta__: { namespace: 'work.Project', intent: 'retrieve', whyNot: { id: 'x' } } }, { token: seeded.admin });
    expect(bad.status).toBe(400);
    expect(bad.body.__errors__[0].message).toBe('whyNot must be {"id": <the record\'s id>}');
    const collection = await seeded.t.post({ __meta__: { namespace: 'work.Notes', intent: 'retrieve', schema: 'nosql', whyNot: { id: 1 } } }, { token: seeded.admin });
    expect(collection.status).toBe(400);
    expect(collection.body.__errors__[0].message).toBe('whyNot explains the records of a model retrieve');
  });
});
