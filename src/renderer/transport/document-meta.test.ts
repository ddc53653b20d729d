import { describe, expect, it } from 'vitest';
import { withMetaKeys } from './document-meta.ts';

describe('withMetaKeys', () => {
  it("sets a key in a single query's __meta__ and keeps every digit of the document", () => {
    const text = '{"__meta__": {"namespace": "a.B", "intent": "retrieve", "filter": {"id": 9007199254740993}}, "name": null}';
    const out = withMetaKeys(text, { seeAs: 'agent' }) as string;
    expect(out).toContain('9007199254740993');
    expect(JSON.parse(out).__meta__).toMatchObject({ namespace: 'a.B', seeAs: 'agent' });
  });

  it("puts a multi-query's key in __root_meta__ (made if absent), or in one subquery's __meta__", () => {
    const text = '{"one": {"__meta__": {"namespace": "a.B", "intent": "retrieve"}}, "two": {"__meta__": {"namespace": "a.C", "intent": "count"}}}';
    expect(JSON.parse(withMetaKeys(text, { seeAs: 'agent' }) as string).__root_meta__).toEqual({ seeAs: 'agent' });
    const sub = JSON.parse(withMetaKeys(text, { whyNot: { id: 4 } }, 'two') as string);
    expect(sub.two.__meta__.whyNot).toEqual({ id: 4 });
    expect(sub.one.__meta__.whyNot).toBeUndefined();
  });

  it('answers null for a text that is not a JSON object', () => {
    expect(withMetaKeys('[1, 2]', { seeAs: 'x' })).toBeNull();
    expect(withMetaKeys('not json', { seeAs: 'x' })).toBeNull();
  });
});
