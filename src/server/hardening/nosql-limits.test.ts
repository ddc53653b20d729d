// NoSQL document paths are free text, so the size bounds of a query matter most there: thousands of
// filter keys or ordering paths are an invalid_request, never SQL that SQLite refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';
import { expectDocumented } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace({ apps: { chat: { collections: { Message: { permissions: { retrieve: ['anyone'], create: ['anyone'] } } } } } }) });
});
afterAll(() => t.close());

describe('NoSQL query size bounds', () => {
  it('refuses thousands of filter, exclude and ordering paths with invalid_request', async () => {
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`a${i}.b`, i]));
    for (const meta of [{ filter: many }, { exclude: many }, { ordering: Object.keys(many) }]) {
      const res = await t.post({ __meta__: { namespace: 'chat.Message', schema: 'nosql', intent: 'retrieve', ...meta } });
      expect(expectDocumented(res, Object.keys(meta)[0] as string)).toEqual(['invalid_request']);
    }
    // At the bound itself the query runs.
    const bound = Object.fromEntries(Array.from({ length: 256 }, (_, i) => [`a${i}`, i]));
    const ok = await t.post({ __meta__: { namespace: 'chat.Message', schema: 'nosql', intent: 'retrieve', filter: bound, exclude: bound } });
    expect(ok.status).toBe(200);
  });
});
