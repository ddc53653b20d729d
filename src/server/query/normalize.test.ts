import { describe, expect, it } from 'vitest';
import { mapKeys, snakeKey, snakePath, snakeSelection } from './normalize.ts';

describe('normalization', () => {
  it('turns camelCase keys into snake_case and leaves snake_case alone', () => {
    expect(snakeKey('uniqueObject')).toBe('unique_object');
    expect(snakeKey('firstName')).toBe('first_name');
    expect(snakeKey('fileFieldMapping')).toBe('file_field_mapping');
    expect(snakeKey('created_at')).toBe('created_at');
    expect(snakeKey('multipartFormUpload')).toBe('multipart_form_upload');
    expect(snakeKey('authenticationClass')).toBe('authentication_class');
  });

  it('normalizes each segment of a path and keeps separators, lookups and the - prefix', () => {
    expect(snakePath('-createdAt')).toBe('-created_at');
    expect(snakePath('assignee.firstName__icontains')).toBe('assignee.first_name__icontains');
    expect(snakePath('priority__gte')).toBe('priority__gte');
  });

  it('never rewrites values, only keys', () => {
    const out = mapKeys({ firstName: 'camelValue', meta: { innerKey: 1 } }, snakeKey);
    expect(out).toEqual({ first_name: 'camelValue', meta: { innerKey: 1 } });
  });

  it('normalizes nested selections at every level', () => {
    expect(snakeSelection({ assignee: { firstName: null } })).toEqual({ assignee: { first_name: null } });
  });

  it('keeps a __proto__ key as plain data', () => {
    const out = mapKeys(JSON.parse('{"__proto__": {"polluted": true}}'), snakeKey);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
