// Path parsing and JSON path quoting: the part of the processor that stands between request text and SQL.
import { describe, expect, it } from 'vitest';
import { JqlFailure } from '../../errors.ts';
import { jsonPath, splitLookup, targetOf } from './paths.ts';

describe('splitLookup', () => {
  it('splits a known lookup after the last __ and keeps dots in the path', () => {
    expect(splitLookup('author.name__icontains', [])).toEqual({ path: 'author.name', lookup: 'icontains' });
    expect(splitLookup('author.name', [])).toEqual({ path: 'author.name', lookup: null });
  });

  it('refuses an unknown lookup word', () => {
    expect(() => splitLookup('name__icontain', [])).toThrow(JqlFailure);
  });

  it('keeps keys that merely contain __ addressable', () => {
    expect(splitLookup('__typename', [])).toEqual({ path: '__typename', lookup: null });
    expect(splitLookup('meta__x__exact', [])).toEqual({ path: 'meta__x', lookup: 'exact' });
    expect(splitLookup('a.__b', [])).toEqual({ path: 'a.__b', lookup: null });
  });
});

describe('jsonPath', () => {
  it('quotes every key and escapes quotes, backslashes and control characters', () => {
    expect(jsonPath(['author', 'name'])).toBe('$."author"."name"');
    expect(jsonPath(['a"b', 'c\\d', 'e\nf'])).toBe('$."a\\u0022b"."c\\u005cd"."e\\u000af"');
    expect(jsonPath(['x\ud800'])).toBe('$."x\\ud800"');
    expect(jsonPath(['😀'])).toBe('$."😀"');
  });

  it('maps the reserved keys to columns and refuses empty segments', () => {
    expect(targetOf('id', [])).toEqual({ kind: 'column', column: 'id' });
    expect(targetOf('author.id', [])).toEqual({ kind: 'document', jsonPath: '$."author"."id"' });
    expect(() => targetOf('a..b', [])).toThrow(/empty segment/);
  });
});
