import { describe, expect, it } from 'vitest';
import { resolveWorkspace } from '../workspace/resolve.ts';
import { JqlFailure } from '../errors.ts';
import { compileConditions, lookupsFor } from './filter.ts';
import { JoinSet } from './joins.ts';
import { ModelReach } from './reach.ts';
import { createAccessControl } from '../auth/access.ts';
import type { ModelDef } from '../workspace/types.ts';
import { compileOrdering } from './ordering.ts';
import { resolvePath } from './paths.ts';
import { LIBRARY_WORKSPACE } from '../testing/fixture.ts';

const ws = resolveWorkspace(LIBRARY_WORKSPACE, null);
const book = ws.models.get('lib.Book')!;
// The library lets anyone read everything: these tests are about the SQL, reach.test.ts about access.
const anonymous = { state: { ws, access: createAccessControl() }, user: null };
const joinsOf = (model: ModelDef) => new JoinSet(new ModelReach(anonymous, model));

function compile(filter: Record<string, any>) {
  const joins = joinsOf(book);
  const out = compileConditions(ws, book, filter, joins, 'filter');
  return { where: out.sql.join(' AND '), params: out.params, from: joins.from().sql };
}

function errorOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof JqlFailure) return error.errors[0];
    throw error;
  }
  throw new Error('expected a JqlFailure');
}

describe('resolvePath', () => {
  it('walks references with . and __ and splits the lookup off', () => {
    const dotted = resolvePath(ws, book, 'author.name__icontains', { lookups: true, errorPath: [] });
    const underscored = resolvePath(ws, book, 'author__name__icontains', { lookups: true, errorPath: [] });
    expect(dotted).toMatchObject({ path: 'author.name', lookup: 'icontains' });
    expect(dotted.hops.map((h) => h.target.key)).toEqual(['lib.Author']);
    expect(underscored.path).toBe(dotted.path);
  });

  it('applies a lookup after a reference to the reference column itself', () => {
    const resolved = resolvePath(ws, book, 'author__isnull', { lookups: true, errorPath: [] });
    expect(resolved).toMatchObject({ path: 'author', lookup: 'isnull', hops: [] });
  });

  it('tells an unknown field from an unknown lookup', () => {
    expect(errorOf(() => resolvePath(ws, book, 'titel', { lookups: true, errorPath: ['filter', 'titel'] }))).toMatchObject({ code: 'unknown_field', field: 'titel' });
    expect(errorOf(() => resolvePath(ws, book, 'title__like', { lookups: true, errorPath: [] }))).toMatchObject({ code: 'invalid_lookup' });
    expect(errorOf(() => resolvePath(ws, book, 'title.length', { lookups: false, errorPath: [] }))).toMatchObject({ code: 'unknown_field' });
    expect(errorOf(() => resolvePath(ws, book, 'secret_note', { lookups: true, errorPath: [] }))).toMatchObject({ code: 'unknown_field' });
  });
});

describe('compileConditions', () => {
  it('binds every value and takes names only from the workspace', () => {
    const out = compile({ title__icontains: "50%_off'", pages__gte: 3, author__name: 'Borges' });
    expect(out.where).toBe(`t0."title" LIKE ? ESCAPE '\\' AND t0."pages" >= ? AND t1."name" = ?`);
    expect(out.params).toEqual(["%50\\%\\_off'%", 3, 'Borges']);
    expect(out.from).toBe('FROM "lib.Book" AS t0 LEFT JOIN "lib.Author" AS t1 ON t1."id" = t0."author"');
  });

  it('reuses one join per reference path', () => {
    const out = compile({ 'author.name': 'a', author__country: 'b' });
    expect(out.from.match(/LEFT JOIN/g)).toHaveLength(1);
  });

  it('compiles null-safe ne, IS NULL for exact null, in as one parameter, and range', () => {
    expect(compile({ pages__ne: 5 })).toMatchObject({ where: 't0."pages" IS NOT ?', params: [5] });
    expect(compile({ pages: null }).where).toBe('t0."pages" IS NULL');
    expect(compile({ pages__in: [1, 2, 3] })).toMatchObject({ where: 't0."pages" IN (SELECT value FROM json_each(?))', params: ['[1,2,3]'] });
    expect(compile({ pages__range: [1, 9] })).toMatchObject({ where: 't0."pages" BETWEEN ? AND ?', params: [1, 9] });
    expect(compile({ in_print: true }).params).toEqual([1]);
  });

  it('uses case-sensitive GLOB with escaped wildcards for contains/startswith/endswith', () => {
    expect(compile({ title__contains: 'a*b?[c' })).toMatchObject({ where: 't0."title" GLOB ?', params: ['*a[*]b[?][[]c*'] });
    expect(compile({ title__startswith: 'x' }).params).toEqual(['x*']);
    expect(compile({ title__endswith: 'x' }).params).toEqual(['*x']);
  });

  it('refuses values of the wrong type and lookups that do not fit the field', () => {
    expect(errorOf(() => compile({ pages: '3' }))).toMatchObject({ code: 'invalid_request', path: ['filter', 'pages'] });
    expect(errorOf(() => compile({ pages__in: 3 }))).toMatchObject({ code: 'invalid_request' });
    expect(errorOf(() => compile({ pages__contains: 3 }))).toMatchObject({ code: 'invalid_lookup' });
    expect(errorOf(() => compile({ tags: ['x'] }))).toMatchObject({ code: 'invalid_request' });
    expect(errorOf(() => compile({ title__range: 'a' }))).toMatchObject({ code: 'invalid_request' });
  });

  it('lists the lookups each type takes', () => {
    expect(lookupsFor(book.fields.get('title')!)).toContain('icontains');
    expect(lookupsFor(book.fields.get('pages')!)).not.toContain('contains');
    expect(lookupsFor(book.fields.get('tags')!)).toEqual(['exact', 'isnull']);
  });
});

describe('compileOrdering', () => {
  it('applies entries in order, then the id tie-break, and joins references', () => {
    const joins = joinsOf(book);
    expect(compileOrdering(ws, book, ['-author.name', 'title'], joins)).toBe('ORDER BY t1."name" DESC, t0."title" ASC, t0."id" ASC');
    expect(compileOrdering(ws, book, ['-id'], joinsOf(book))).toBe('ORDER BY t0."id" DESC');
  });

  it('falls back to the model ordering, then id', () => {
    const author = ws.models.get('lib.Author')!;
    expect(compileOrdering(ws, author, undefined, joinsOf(author))).toBe('ORDER BY t0."name" ASC, t0."id" ASC');
  });
});
