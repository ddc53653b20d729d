import { describe, expect, it } from 'vitest';
import { findDuplicateKeys } from './duplicate-keys.ts';
import { normalizeText } from './normalize-envelope.ts';
import { duplicateKeysNote } from '../features/envelope-viewer/duplicate-keys-note.ts';
import { statusTone } from '../features/envelope-viewer/ResponseHeader.tsx';

const ERROR_THEN_NULL = '{"__payload__":[{"id":1}],"__errors__":[{"code":"permission_denied","message":"No"}],"__intent__":"retrieve","__errors__":null}';

describe('keys an answer sends twice (issue 31 item 6)', () => {
  it('names a doubled envelope key, which JSON.parse resolves to the last without a word', () => {
    const view = normalizeText(ERROR_THEN_NULL, 200);
    // What JSON.parse alone gives: rows and no error.
    expect(view.failed).toBe(false);
    expect(view.duplicateKeys).toEqual({ top: [{ key: '__errors__', times: 2 }], nested: 0, firstNested: null });
    const note = duplicateKeysNote(view.duplicateKeys)!;
    expect(note.envelope).toBe(true);
    expect(note.sentences[0]).toBe('The answer has the key "__errors__" twice; the console shows the last one, Raw shows both.');
    expect(note.sentences[1]).toMatch(/earlier "__errors__" may hold errors that are not shown/);
    // The status code is not shown as a plain success.
    expect(statusTone(view)).toBe('warn');
    expect(statusTone(normalizeText('{"__payload__":[],"__errors__":null}', 200))).toBe('ok');
  });

  it('counts objects with a doubled key below the envelope and names the first', () => {
    const text = '{"__payload__":[{"id":1,"id":2},{"id":3},{"a":{"x":1,"y":[1,{"k":1,"k":2,"k":3}]}},{"t":1,"t":2}],"__errors__":null}';
    expect(findDuplicateKeys(text)).toEqual({ top: [], nested: 3, firstNested: { where: '__payload__[0]', key: 'id' } });
    expect(findDuplicateKeys('{"p":[0,{"a":{"x":1,"y":[1,{"k":1,"k":2}]}}]}')!.firstNested).toEqual({ where: 'p[1].a.y[1]', key: 'k' });
    expect(duplicateKeysNote(findDuplicateKeys(text))).toEqual({
      envelope: false,
      sentences: ['3 objects in the answer have a key more than once (the first: "id" in `__payload__[0]`); the console shows the last value of each, Raw shows them all.'],
    });
  });

  it('reads keys as JSON does: escapes, strings holding quotes, braces and colons', () => {
    expect(findDuplicateKeys('{"a":1,"\\u0061":2}')!.top).toEqual([{ key: 'a', times: 2 }]);
    expect(findDuplicateKeys('{"a":"{\\"a\\":1,\\"a\\":2}","b":"x\\\\","c":[":",","]}')).toBeNull();
    expect(findDuplicateKeys('{"a":{"b":1},"b":2,"c":[{"b":3},{"b":4}]}')).toBeNull();
    // Same key, different objects at the same level: no duplicate.
    expect(findDuplicateKeys('[{"id":1},{"id":1}]')).toBeNull();
  });

  it('counts each doubled envelope key, however often, and objects of many keys', () => {
    const many = `{${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',')},"k39":0,"k0":0,"k0":1}`;
    expect(findDuplicateKeys(many)!.top).toEqual([
      { key: 'k39', times: 2 },
      { key: 'k0', times: 3 },
    ]);
  });

  it('scans 100,000 levels of nesting without recursion', () => {
    const deep = `{"__payload__":${'['.repeat(100_000)}{"a":1,"a":2}${']'.repeat(100_000)}}`;
    expect(findDuplicateKeys(deep)!.nested).toBe(1);
  });

  it('is null for a view built from a body that is not JSON', () => {
    expect(normalizeText('{"a":1,"a":', 200).duplicateKeys).toBeNull();
  });
});
