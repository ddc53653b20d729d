import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';

// Hostile names and values through every place a name or value enters SQL. Names must be refused
// (they only ever come from the workspace), values must match literally, and the table must survive.
const HOSTILE = [
  `title"; DROP TABLE "lib.Book"; --`,
  `title) OR 1=1 --`,
  `' OR '1'='1`,
  `title/**/`,
  `"lib.Book"`,
  `sqlite_master`,
  `title\u0000`,
  `author.name"); DELETE FROM "lib.Author"; --`,
];

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace(LIBRARY_WORKSPACE) });
  await t.post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'Borges' });
  await t.post({ __meta__: { namespace: 'lib.Book', intent: 'create' }, title: 'Ficciones', author: 1 });
});
afterAll(() => t.close());

const books = (meta: Record<string, unknown>, data: Record<string, unknown> = {}) => ({ __meta__: { namespace: 'lib.Book', intent: 'retrieve', ...meta }, ...data });

async function intact() {
  const res = await t.post({ __meta__: { namespace: 'lib.Book', intent: 'count' } });
  expect(res.body.__payload__.count).toBe(1);
  const authors = await t.post({ __meta__: { namespace: 'lib.Author', intent: 'count' } });
  expect(authors.body.__payload__.count).toBe(1);
}

describe('SQL injection', () => {
  it('refuses hostile field names in filters, exclude, ordering, groupBy, selection, return and aggregates', async () => {
    for (const name of HOSTILE) {
      const attempts = [
        books({ filter: { [name]: 1 } }),
        books({ filter: { [`${name}__icontains`]: 'x' } }),
        books({ exclude: { [name]: 'x' } }),
        books({ ordering: [name, `-${name}`] }),
        books({ groupBy: [name] }),
        books({ groupBy: { by: ['status'], aggregates: { n: { sum: name } } } }),
        books({}, { [name]: null }),
        books({}, { author: { [name]: null } }),
        books({ uniqueObject: { [name]: 1 } }),
        { __meta__: { namespace: 'lib.Book', intent: 'create', return: { [name]: null } }, title: 'x' },
        { __meta__: { namespace: 'lib.Book', intent: 'create' }, [name]: 'x', title: 'x' },
      ];
      for (const attempt of attempts) {
        const res = await t.post(attempt);
        expect(res.status, `${name} in ${JSON.stringify(attempt)}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(['unknown_field', 'invalid_lookup', 'invalid_request']).toContain(res.body.__errors__[0].code);
      }
    }
    await intact();
  });

  it('binds hostile values literally in every lookup and in search', async () => {
    for (const value of HOSTILE) {
      // The one book, "Ficciones", as each lookup finds it against the value taken literally: no text
      // lookup matches, `ne` does, and `gt` does when the title sorts after the value.
      const found: Array<[string, string[]]> = [
        ['', []],
        ['__iexact', []],
        ['__contains', []],
        ['__icontains', []],
        ['__startswith', []],
        ['__iendswith', []],
        ['__ne', ['Ficciones']],
        ['__gt', 'Ficciones' > value ? ['Ficciones'] : []],
      ];
      for (const [lookup, titles] of found) {
        const res = await t.post(books({ filter: { [`title${lookup}`]: value } }, { title: null }));
        expect(res.status, `title${lookup} ${value}`).toBe(200);
        expect(res.body.__payload__.map((book: { title: string }) => book.title), `title${lookup} ${value}`).toEqual(titles);
      }
      const inList = await t.post(books({ filter: { title__in: [value, 'Ficciones'] } }));
      expect(inList.body.__payload__).toHaveLength(1);
      const search = await t.post(books({ search: { value } }));
      expect(search.body.__payload__).toEqual([]);
      const created = await t.post({ __meta__: { namespace: 'lib.Author', intent: 'count', filter: { name: value } } });
      expect(created.body.__payload__.count).toBe(0);
    }
    await intact();
  });

  it('stores hostile values as data', async () => {
    const res = await t.post({ __meta__: { namespace: 'lib.Book', intent: 'create' }, title: HOSTILE[0] });
    expect(res.body.__payload__.title).toBe(HOSTILE[0]);
    const found = await t.post(books({ filter: { title: HOSTILE[0] } }, { title: null }));
    expect(found.body.__payload__[0].title).toBe(HOSTILE[0]);
    await t.post({ __meta__: { namespace: 'lib.Book', intent: 'delete', uniqueObject: { id: res.body.__payload__.id } } });
    await intact();
  });
});
