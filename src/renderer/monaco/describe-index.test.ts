import { describe, expect, it } from 'vitest';
import { listNamespaces } from './describe-index.ts';
import { demoDescribe } from './describe.fixture.ts';

describe('listNamespaces', () => {
  it('walks a describe once however often it is asked, and answers what a fresh walk answers', () => {
    const first = listNamespaces(demoDescribe);
    expect(listNamespaces(demoDescribe)).toBe(first);
    // A copy is another describe: walked afresh, to the same list.
    const fresh = listNamespaces(structuredClone(demoDescribe));
    expect(fresh).not.toBe(first);
    expect(fresh).toEqual(first);
    expect(first.map((n) => n.namespace)).toContain('system.User');
  });
});
