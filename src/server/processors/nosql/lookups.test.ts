// Every filter lookup on nested document paths, exclude's NULL rule, value type errors, and hostile
// paths that must stay data (docs/protocol.md "`__meta__` keys", "Processors").
import { beforeEach, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../shared/protocol.ts';
import { ids, makeHarness, seed, type Harness } from './test-context.ts';

let h: Harness;

beforeEach(async () => {
  h = makeHarness();
  await seed(h, [
    { text: 'Hello World', author: { name: 'Ann', age: 30 }, tags: ['a', 'b'], read: true },
    { text: 'hello there', author: { name: 'bob', age: 25 }, read: false },
    { text: '100% sure_thing', author: { name: 'Carl' }, read: null },
    { text: 'Ünïcode', author: null },
    { text: 42, author: { name: 'ann', age: '30' } },
  ]);
});

const filtered = (filter: Record<string, JsonValue>) => ids(h, { filter });

describe('lookups on nested paths', () => {
  it('exact (default) compares value and JSON type', async () => {
    expect(await filtered({ 'author.name': 'Ann' })).toEqual([1]);
    expect(await filtered({ 'author.name__exact': 'ann' })).toEqual([5]);
    expect(await filtered({ 'author.age': 30 })).toEqual([1]);
    expect(await filtered({ 'author.age': '30' })).toEqual([5]);
    expect(await filtered({ read: true })).toEqual([1]);
    expect(await filtered({ read: false })).toEqual([2]);
    expect(await filtered({ tags: ['a', 'b'] })).toEqual([1]);
    expect(await filtered({ text: 42 })).toEqual([5]);
  });

  it('exact null matches a missing key or a JSON null', async () => {
    expect(await filtered({ 'author.age': null })).toEqual([3, 4]);
    expect(await filtered({ read: null })).toEqual([3, 4, 5]);
  });

  it('iexact, contains, icontains, startswith, istartswith, endswith, iendswith', async () => {
    expect(await filtered({ 'author.name__iexact': 'ANN' })).toEqual([1, 5]);
    expect(await filtered({ text__contains: 'llo' })).toEqual([1, 2]);
    expect(await filtered({ text__contains: 'World' })).toEqual([1]);
    expect(await filtered({ text__contains: 'world' })).toEqual([]);
    expect(await filtered({ text__icontains: 'WORLD' })).toEqual([1]);
    expect(await filtered({ text__startswith: 'Hello' })).toEqual([1]);
    expect(await filtered({ text__istartswith: 'hello' })).toEqual([1, 2]);
    expect(await filtered({ text__endswith: 'there' })).toEqual([2]);
    expect(await filtered({ text__iendswith: 'WORLD' })).toEqual([1]);
  });

  it('treats % _ * ? [ as literal characters and never matches numbers with text lookups', async () => {
    expect(await filtered({ text__icontains: '0%' })).toEqual([3]);
    expect(await filtered({ text__icontains: 'e_t' })).toEqual([3]);
    expect(await filtered({ text__icontains: '%' })).toEqual([3]);
    expect(await filtered({ text__contains: '*' })).toEqual([]);
    expect(await filtered({ text__contains: '?' })).toEqual([]);
    expect(await filtered({ text__contains: '4' })).toEqual([]);
  });

  it('gt, gte, lt, lte and range compare numbers with numbers and strings with strings', async () => {
    expect(await filtered({ 'author.age__gt': 25 })).toEqual([1]);
    expect(await filtered({ 'author.age__gte': 25 })).toEqual([1, 2]);
    expect(await filtered({ 'author.age__lt': 30 })).toEqual([2]);
    expect(await filtered({ 'author.age__lte': 30 })).toEqual([1, 2]);
    expect(await filtered({ 'author.age__range': [26, 40] })).toEqual([1]);
    expect(await filtered({ 'author.age__gte': '3' })).toEqual([5]);
    expect(await filtered({ 'author.name__range': ['A', 'Z'] })).toEqual([1, 3]);
  });

  it('in takes an array; a null item also matches missing values', async () => {
    expect(await filtered({ 'author.name__in': ['Ann', 'bob'] })).toEqual([1, 2]);
    expect(await filtered({ 'author.age__in': [30, '30'] })).toEqual([1, 5]);
    expect(await filtered({ 'author.age__in': [] })).toEqual([]);
    expect(await filtered({ 'author.age__in': [25, null] })).toEqual([2, 3, 4]);
  });

  it('isnull and the null-safe ne', async () => {
    expect(await filtered({ 'author.age__isnull': true })).toEqual([3, 4]);
    expect(await filtered({ 'author.age__isnull': false })).toEqual([1, 2, 5]);
    expect(await filtered({ 'author.age__ne': 30 })).toEqual([2, 3, 4, 5]);
    expect(await filtered({ 'author.age__ne': null })).toEqual([1, 2, 5]);
    expect(await filtered({ read__ne: true })).toEqual([2, 3, 4, 5]);
  });

  it('filters the id and timestamp columns', async () => {
    expect(await filtered({ id__in: [2, 4] })).toEqual([2, 4]);
    expect(await filtered({ id__gte: 4 })).toEqual([4, 5]);
    expect(await filtered({ created_at__startswith: '20' })).toEqual([1, 2, 3, 4, 5]);
    expect(await filtered({ 'author.id': null })).toEqual([1, 2, 3, 4, 5]);
  });

  it('ANDs several entries', async () => {
    expect(await filtered({ text__icontains: 'hello', 'author.age__lt': 30 })).toEqual([2]);
  });
});

describe('exclude', () => {
  it('removes matches and keeps documents whose value is missing or null', async () => {
    expect(await ids(h, { exclude: { 'author.age__gte': 26 } })).toEqual([2, 3, 4, 5]);
    expect(await ids(h, { exclude: { 'author.name': 'Ann' } })).toEqual([2, 3, 4, 5]);
    expect(await ids(h, { exclude: { read: false } })).toEqual([1, 3, 4, 5]);
  });

  it('removes only documents matching all of its entries', async () => {
    expect(await ids(h, { exclude: { text__icontains: 'hello', 'author.age': 30 } })).toEqual([2, 3, 4, 5]);
  });

  it('with a null value drops that key from the records', async () => {
    const { payload } = await h.run({ intent: 'retrieve', exclude: { author: null, tags: null }, filter: { id: 1 } });
    expect(payload).toEqual([{ id: 1, text: 'Hello World', read: true, created_at: expect.any(String), updated_at: expect.any(String) }]);
  });
});

describe('refused filters', () => {
  it('an unknown lookup is invalid_lookup', async () => {
    expect(await h.fails({ intent: 'retrieve', filter: { 'author.name__icontain': 'a' } })).toMatchObject({ code: 'invalid_lookup', field: 'author.name' });
    expect((await h.fails({ intent: 'retrieve', filter: { id__icontains: '1' } })).code).toBe('invalid_lookup');
  });

  it('values of the wrong type are invalid_request', async () => {
    const filters: Array<Record<string, JsonValue>> = [
      { 'author.name__in': 'Ann' },
      { 'author.age__isnull': 'yes' },
      { 'author.age__range': [1] },
      { 'author.age__range': [1, 'z'] },
      { 'author.age__gt': true },
      { 'author.name__icontains': 3 },
      { id: 'one' },
      { created_at__gt: 5 },
    ];
    for (const filter of filters) {
      expect((await h.fails({ intent: 'retrieve', filter })).code, JSON.stringify(filter)).toBe('invalid_request');
    }
  });

  it('an empty path segment is invalid_request', async () => {
    expect((await h.fails({ intent: 'retrieve', filter: { 'author..name': 'x' } })).code).toBe('invalid_request');
  });
});

describe('hostile paths', () => {
  const hostile = ['a"); DROP TABLE jql_documents; --', "a'); DROP TABLE jql_documents; --", 'a\\"', '$', 'a[0]', '*/ 1=1 --'];

  it('stay data in filter, exclude, ordering and scopes, and the table is intact', async () => {
    for (const path of hostile) {
      expect(await ids(h, { filter: { [path]: 'x' } })).toEqual([]);
      expect(await ids(h, { filter: { [`${path}__isnull`]: true } })).toEqual([1, 2, 3, 4, 5]);
      expect(await ids(h, { exclude: { [path]: 'x' } })).toEqual([1, 2, 3, 4, 5]);
      expect(await ids(h, { ordering: [`-${path}`] })).toEqual([1, 2, 3, 4, 5]);
    }
    h.access.set('retrieve', { scopes: [{ [hostile[0] as string]: 'x' }] });
    expect(await ids(h, {})).toEqual([]);
    const tables = h.raw.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'jql_documents'");
    expect(tables).toHaveLength(1);
    expect(h.raw.get('SELECT count(*) AS n FROM jql_documents')).toEqual({ n: 5 });
  });

  it('address documents whose keys hold quotes and backslashes', async () => {
    const weird = 'a"); DROP TABLE jql_documents; --';
    await seed(h, [{ [weird]: { 'b\\c': 'found' } }]);
    expect(await ids(h, { filter: { [`${weird}.b\\c`]: 'found' } })).toEqual([6]);
    expect(h.raw.get('SELECT count(*) AS n FROM jql_documents')).toEqual({ n: 6 });
  });
});
