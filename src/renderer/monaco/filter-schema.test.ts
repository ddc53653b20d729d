import { describe, expect, it } from 'vitest';
import { demoDescribe } from './describe.fixture.ts';
import { buildFilterSchema } from './filter-schema.ts';

describe('buildFilterSchema', () => {
  it("offers the model's filter keys with their lookups, through references too", () => {
    const schema = buildFilterSchema(demoDescribe, 'tickets.Ticket')!;
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(['status', 'priority__gte', 'title__icontains', 'assignee__username']));
    expect(schema.additionalProperties).toBe(false);
    expect(JSON.stringify(schema)).not.toContain('$ref');
  });

  it('has nothing for a namespace that is not a model', () => {
    expect(buildFilterSchema(demoDescribe, 'nope.Nothing')).toBeNull();
  });
});
