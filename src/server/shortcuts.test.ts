// `shortcuts: false` (a server option, never a wire one) turns every shortcut of the request path off,
// so the transparency tests (query/shortcuts.property.test.ts) compare a server with them against the
// plain path. Each shortcut is observed here to be taken with them and not without.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Statement } from './db/connection.ts';
import type { StatementCache } from './db/statements.ts';
import { runRequest } from './dispatch/run-request.ts';
import { plansOf } from './query/plan-cache.ts';
import { resolvePath } from './query/paths.ts';
import { buildSelection } from './query/selection.ts';
import { LIBRARY_WORKSPACE, testApp, writeWorkspace, type TestApp } from './testing/fixture.ts';

const servers: Record<'on' | 'off', TestApp> = {} as Record<'on' | 'off', TestApp>;
const ADMIN = 'root:root-password-1';

beforeAll(async () => {
  servers.on = await testApp({ workspace: writeWorkspace(LIBRARY_WORKSPACE), env: { JQL_ADMIN: ADMIN } });
  servers.off = await testApp({ workspace: writeWorkspace(LIBRARY_WORKSPACE), env: { JQL_ADMIN: ADMIN }, shortcuts: false });
});
afterAll(async () => {
  await servers.on.close();
  await servers.off.close();
});

const authors = { __meta__: { namespace: 'lib.Author', intent: 'retrieve', filter: { name__isnull: false } }, name: null };
const byId = { __meta__: { namespace: 'lib.Author', intent: 'retrieveOne', uniqueObject: { id: 1 } }, name: null };

describe('a server without shortcuts', () => {
  it('makes no plan, so it answers no anonymous read without a promise', async () => {
    for (const which of ['on', 'off'] as const) {
      const { state } = servers[which];
      for (let i = 0; i < 3; i++) await servers[which].post(authors);
      const input = { body: authors, infoLevel: 0, shape: 'standard', credentials: {} } as const;
      const answer = runRequest(state, input, () => undefined);
      expect(answer instanceof Promise, which).toBe(which === 'off');
      await answer;
      expect(plansOf(state).stats().hits > 0, which).toBe(which === 'on');
      expect(plansOf(state).stats().built > 0, which).toBe(which === 'on');
    }
  });

  it('answers a cached read from the database every time', async () => {
    const cached = { ...authors, __meta__: { ...authors.__meta__, cache: { enabled: true } } };
    for (const which of ['on', 'off'] as const) {
      await servers[which].post(cached);
      const again = await servers[which].post(cached);
      expect(again.body.__extras__.cached, which).toBe(which === 'on');
    }
  });

  it('reads a short page row by row instead of in one call', async () => {
    const page = { __meta__: { namespace: 'lib.Author', intent: 'retrieve', limit: 3 }, name: null };
    for (const which of ['on', 'off'] as const) {
      const prototype = Object.getPrototypeOf(servers[which].state.db.read((statements: StatementCache) => statements.get('SELECT 1 AS one'))) as Statement;
      const all = vi.spyOn(prototype, 'all');
      const iterate = vi.spyOn(prototype, 'iterate');
      try {
        expect((await servers[which].post(page)).status).toBe(200);
        expect(iterate.mock.calls.length > 0, which).toBe(which === 'off');
        expect(all.mock.calls.length > 0, which).toBe(which === 'on');
      } finally {
        all.mockRestore();
        iterate.mockRestore();
      }
    }
  });

  it('measures every row it reads for the answer budget, however far the answer is from it', async () => {
    // The exact count scans each string value (query/json-bytes.ts); the lazy one reads its length only.
    const scanned = (calls: unknown[][], name: string) => calls.filter(([text]) => text === name).length;
    for (const which of ['on', 'off'] as const) {
      const name = 'Measured by the budget';
      const token = await servers[which].login('root', 'root-password-1');
      const created = await servers[which].post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name }, { token });
      expect(created.status, which).toBe(200);
      const test = vi.spyOn(RegExp.prototype, 'test');
      try {
        const read = await servers[which].post({ __meta__: { namespace: 'lib.Author', intent: 'retrieveOne', uniqueObject: { id: created.body.__payload__.id } }, name: null });
        expect(read.body.__payload__.name, which).toBe(name);
        expect(scanned(test.mock.calls, name) > 0, which).toBe(which === 'off');
      } finally {
        test.mockRestore();
      }
    }
  });

  it('prepares every statement afresh', () => {
    for (const which of ['on', 'off'] as const) {
      const seen: Statement[] = [];
      servers[which].state.db.read((statements: StatementCache) => {
        seen.push(statements.get('SELECT 1 AS one'), statements.get('SELECT 1 AS one'));
      });
      expect(seen[0] === seen[1], which).toBe(which === 'on');
    }
  });

  it('works out resolved paths and full selections on every request', () => {
    for (const which of ['on', 'off'] as const) {
      const { ws } = servers[which].state;
      const book = ws.models.get('lib.Book');
      if (!book) throw new Error('the library has books');
      const path = () => resolvePath(ws, book, 'author.name__icontains', { lookups: true, errorPath: [] });
      expect(path() === path(), which).toBe(which === 'on');
      const all = () => buildSelection(ws, book, null, []);
      expect(all() === all(), which).toBe(which === 'on');
    }
  });

  it('parses every stored json value instead of passing its text through', async () => {
    const token = await servers.on.login('root', 'root-password-1');
    const offToken = await servers.off.login('root', 'root-password-1');
    const tagged = { __meta__: { namespace: 'lib.Book', intent: 'retrieve', filter: { title: 'Tagged' } }, tags: null };
    for (const [which, t] of [['on', token], ['off', offToken]] as const) {
      const created = await servers[which].post({ __meta__: { namespace: 'lib.Book', intent: 'create' }, title: 'Tagged', tags: ['a', { b: 1 }] }, { token: t });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const parse = vi.spyOn(JSON, 'parse');
      try {
        const answer = await servers[which].app.inject({ method: 'POST', url: `${servers[which].state.basePath}/jql`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(tagged) });
        expect(answer.body).toContain('"tags":["a",{"b":1}]');
        expect(parse.mock.calls.some(([text]) => text === '["a",{"b":1}]'), which).toBe(which === 'off');
      } finally {
        parse.mockRestore();
      }
    }
  });

  it('answers what the server with shortcuts answers', async () => {
    const token = await servers.on.login('root', 'root-password-1');
    const offToken = await servers.off.login('root', 'root-password-1');
    for (const [which, t] of [['on', token], ['off', offToken]] as const) {
      await servers[which].post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'Ada' }, { token: t });
    }
    for (const query of [authors, byId, authors, byId]) {
      const [on, off] = [await servers.on.post(query), await servers.off.post(query)];
      expect(JSON.stringify(off.body)).toBe(JSON.stringify(on.body));
    }
  });
});
