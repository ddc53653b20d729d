// The SQL-injection corpus beyond src/server/query/injection.test.ts (which covers model fields,
// lookups' values, ordering, groupBy, selection and return): the full-text search index's query
// syntax, hostile lookup names, aggregate names, namespaces, mutation targets and NoSQL document paths.
// Nothing may run as SQL (or FTS5 syntax), and the tables must come out intact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';
import { expectDocumented } from './harness.ts';

const HOSTILE = [
  `x"; DROP TABLE "lib.Book"; --`,
  `') OR 1=1 --`,
  `' OR '1'='1`,
  `*/ DELETE FROM "lib.Author" /*`,
  `$.a') OR 1=1 --`,
  `"lib.Book"`,
  `sqlite_master`,
  `x\u0000y`,
  `a]b[c`,
  `\\`,
];
// FTS5 query syntax: each must be a literal substring, never an operator.
const FTS_SYNTAX = [`" OR "`, `title:x`, `x*`, `NEAR(a b)`, `a AND b`, `a OR b`, `NOT a`, `^abc`, `(abc)`, `"abc`, `{title}: abc`, `a + b`, `""""`, `- abc`];

const WORKSPACE = {
  ...LIBRARY_WORKSPACE,
  apps: { ...LIBRARY_WORKSPACE.apps, chat: { collections: { Message: { permissions: { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] } } } } },
};

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace(WORKSPACE) });
  await t.post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'Borges' });
  await t.post({ __meta__: { namespace: 'lib.Book', intent: 'create' }, title: 'Ficciones', author: 1 });
  await t.post({ __meta__: { namespace: 'lib.Book', intent: 'create' }, title: 'a AND b "quoted" x* NEAR(a b)', author: 1 });
  await t.post({ __meta__: { namespace: 'chat.Message', intent: 'create', schema: 'nosql' }, text: 'hello', author: { name: 'ann' } });
});
afterAll(() => t.close());

async function intact() {
  for (const [namespace, n, schema] of [['lib.Book', 2, 'model'], ['lib.Author', 1, 'model'], ['chat.Message', 1, 'nosql']] as const) {
    const res = await t.post({ __meta__: { namespace, intent: 'count', schema } });
    expect(res.body.__payload__.count, namespace).toBe(n);
  }
}

const search = (value: string) => t.post({ __meta__: { namespace: 'lib.Book', intent: 'retrieve', search: { value } }, title: null });

describe('SQL injection, continued', () => {
  it('treats FTS5 syntax in search as a literal substring', async () => {
    for (const value of [...FTS_SYNTAX, ...HOSTILE]) {
      const res = await search(value);
      expect(res.status, value).toBe(200);
      const expected = ['Ficciones', 'a AND b "quoted" x* NEAR(a b)'].filter((title) => title.toLowerCase().includes(value.toLowerCase()));
      expect(res.body.__payload__.map((b: { title: string }) => b.title), value).toEqual(expected);
    }
    expect((await search('"QUOTED" X*')).body.__payload__).toHaveLength(1);
    await intact();
  });

  it('refuses hostile lookup names, aggregate names and namespaces', async () => {
    for (const name of HOSTILE) {
      const refused = [
        { __meta__: { namespace: 'lib.Book', intent: 'retrieve', filter: { [`title__${name}`]: 'x' } } },
        { __meta__: { namespace: 'lib.Book', intent: 'retrieve', filter: { [`author__${name}`]: 1 } } },
        { __meta__: { namespace: 'lib.Book', intent: 'retrieve', groupBy: { by: ['status'], aggregates: { n: { [name]: 'pages' } } } } },
        { __meta__: { namespace: name, intent: 'retrieve' } },
        { __meta__: { namespace: `lib.${name}`, intent: 'retrieve' } },
        { __meta__: { namespace: 'lib.Book', intent: name } },
        { __meta__: { namespace: 'lib.Book', intent: 'update', uniqueObject: { [name]: 1 } }, title: 'x' },
        { __meta__: { namespace: 'lib.Book', intent: 'delete', uniqueObject: { id: name } } },
      ];
      for (const attempt of refused) {
        const res = await t.post(attempt);
        const codes = expectDocumented(res, JSON.stringify(attempt));
        expect(res.status, JSON.stringify(attempt)).toBeGreaterThanOrEqual(400);
        expect(res.status, JSON.stringify(attempt)).toBeLessThan(500);
        expect(codes[0]).not.toBe('internal_error');
      }
      // A hostile aggregate *name* is only a label of the answer: allowed, and bound nowhere.
      const labelled = await t.post({ __meta__: { namespace: 'lib.Book', intent: 'retrieve', groupBy: { by: ['status'], aggregates: { [name]: { count: '*' } } } } });
      expect(expectDocumented(labelled, `aggregate named ${name}`)).toEqual([]);
      expect(labelled.body.__payload__).toEqual([{ status: 'draft', count: 2, [name]: 2 }]);
    }
    await intact();
  });

  it('binds hostile NoSQL document paths and values, never as SQL', async () => {
    const messages = (meta: Record<string, unknown>) => t.post({ __meta__: { namespace: 'chat.Message', intent: 'retrieve', schema: 'nosql', ...meta } });
    for (const value of HOSTILE) {
      // What each read finds of the one message ({ text: 'hello', author: { name: 'ann' } }): a hostile
      // path or value matches nothing, so filters and search find nothing and exclude keeps it.
      const reads: Array<[Record<string, unknown>, number]> = [
        [{ filter: { [value]: 'x' } }, 0],
        [{ filter: { [`author.${value}`]: 'x' } }, 0],
        [{ filter: { [`text__${value}`]: 'x' } }, 0],
        [{ filter: { text: value } }, 0],
        [{ filter: { 'author.name__icontains': value } }, 0],
        [{ exclude: { [value]: 1 } }, 1],
        [{ ordering: [value, `-${value}`] }, 1],
        [{ search: { value } }, 0],
        [{ uniqueObject: { [value]: 1 } }, 0],
      ];
      for (const [meta, found] of reads) {
        const res = await messages(meta);
        expect(expectDocumented(res, JSON.stringify(meta))).toEqual([]);
        expect(res.body.__payload__, JSON.stringify(meta)).toHaveLength(found);
      }
      const created = await t.post({ __meta__: { namespace: 'chat.Message', intent: 'create', schema: 'nosql' }, [value]: value, text: value });
      expect(expectDocumented(created, `create ${value}`)).toEqual([]);
      expect(created.body.__payload__.text).toBe(value);
      expect(created.body.__payload__[value]).toBe(value);
      await t.post({ __meta__: { namespace: 'chat.Message', intent: 'delete', schema: 'nosql', uniqueObject: { id: created.body.__payload__.id } } });
    }
    await intact();
  });
});
