// Identifying a caller reuses its prepared statements: `loadAuthUser` and the revocation and session
// lookups are prepared once per connection, not once per request.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testApp, type TestApp } from '../testing/fixture.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

describe('identify', () => {
  it('prepares each of its statements at most once over many requests', async () => {
    const token = await t.login('admin', 'admin-demo');
    const session = await t.post({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller', authenticationClass: 'session' }, username: 'agent', password: 'agent-demo' });
    const cookie = String(session.headers['set-cookie']).split(';')[0] as string;
    const reader = t.state.db.read((statements) => statements.connection);
    const prepare = vi.spyOn(reader, 'prepare');
    try {
      for (let i = 0; i < 5; i++) {
        expect((await t.post({ __meta__: { namespace: 'tickets.Ticket', intent: 'count' } }, { token })).status).toBe(200);
        expect((await t.post({ __meta__: { namespace: 'tickets.Ticket', intent: 'count' } }, { cookie })).status).toBe(200);
      }
      const prepared = prepare.mock.calls.map(([sql]) => sql);
      expect(prepared.filter((sql) => sql.includes('FROM "system.User" WHERE "id" = ?'))).toHaveLength(1);
      expect(new Set(prepared).size).toBe(prepared.length);
    } finally {
      prepare.mockRestore();
    }
  });
});
