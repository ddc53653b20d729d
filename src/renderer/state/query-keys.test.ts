import { describe, expect, it } from 'vitest';
import { connectionKeys, schemaKeys, touchesConnection } from './query-keys.ts';

describe('query keys', () => {
  it('are [area, name, params] and can be matched by connection', () => {
    expect(connectionKeys.status('c1', 'http://h')).toEqual(['connection', 'status', { connectionId: 'c1', baseUrl: 'http://h' }]);
    expect(touchesConnection(schemaKeys.describe('c1', 'http://h'), 'c1')).toBe(true);
    expect(touchesConnection(schemaKeys.describe('c2', 'http://h'), 'c1')).toBe(false);
    expect(touchesConnection(['x'], 'c1')).toBe(false);
  });
});
