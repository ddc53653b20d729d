import { describe, expect, it } from 'vitest';
import { FILTER_LOOKUPS, type DescribeResult } from '../../shared/protocol.ts';
import { demoDescribe } from './describe.fixture.ts';
import { listNamespaces } from './describe-index.ts';
import { buildQuerySchema, lazySchemaNote, namespacesIn, type JsonSchema } from './jql-schema.ts';

const schema = buildQuerySchema(demoDescribe);
const defs = schema.definitions!;

/** The `then` of the namespace condition for one namespace and kind. */
function thenFor(namespace: string, kind: 'model' | 'controller' | 'nosql'): JsonSchema {
  const single = defs.single!;
  const cond = single.allOf!.find((c) => {
    const meta = c.if!.properties!.__meta__!.properties!;
    return meta.namespace!.const === namespace && meta.schema!.const === kind;
  });
  if (!cond) throw new Error(`no condition for ${namespace} ${kind}`);
  return cond.then!;
}

describe('listNamespaces', () => {
  it('lists models, controllers and collections with their intents', () => {
    const list = listNamespaces(demoDescribe).map((n) => `${n.kind}:${n.namespace}`);
    expect(list).toEqual([
      'model:system.User',
      'model:tickets.Ticket',
      'model:tickets.Document',
      'controller:system.User',
      'controller:system.Schema',
      'controller:tickets.Document',
      'nosql:chat.Message',
    ]);
  });
});

describe('buildQuerySchema', () => {
  it('tells a single query from a multi-query', () => {
    expect(schema.if).toEqual({ required: ['__meta__'] });
    expect(schema.then).toEqual({ $ref: '#/definitions/single' });
    expect(schema.else!.additionalProperties).toEqual({ $ref: '#/definitions/single' });
    expect(Object.keys(schema.properties!)).toEqual(['__meta__', '__root_meta__']);
  });

  it('offers every namespace and the __meta__ keys, refusing unknown ones', () => {
    const meta = defs.meta!;
    expect(meta.properties!.namespace!.enum).toEqual(['system.User', 'tickets.Ticket', 'tickets.Document', 'system.Schema', 'chat.Message']);
    expect(meta.additionalProperties).toBe(false);
    for (const key of ['namespace', 'intent', 'schema', 'uniqueObject', 'filter', 'exclude', 'search', 'ordering', 'limit', 'offset', 'groupBy', 'render', 'cache']) {
      expect(meta.properties).toHaveProperty(key);
    }
    expect(meta.properties!.unique_object!.doNotSuggest).toBe(true);
  });

  it('narrows intents per namespace and schema', () => {
    const model = thenFor('system.User', 'model').properties!.__meta__!.properties!.intent!;
    expect(model.anyOf![0]!.enum).toEqual(['retrieve', 'retrieveOne', 'create', 'update', 'delete', 'count']);
    expect(model.anyOf![1]!.pattern).toBe('^(retrieve_one)$');
    const controller = thenFor('system.User', 'controller').properties!.__meta__!.properties!.intent!;
    expect(controller.anyOf![0]!.enum).toEqual(['login', 'logout', 'verifyAuthentication']);
    expect(thenFor('chat.Message', 'nosql').properties!.__meta__!.properties!.intent!.anyOf![0]!.enum).toContain('create');
  });

  it('makes a model condition match when schema is absent, and a controller one only with schema', () => {
    const single = defs.single!;
    const modelIf = single.allOf!.find((c) => c.if!.properties!.__meta__!.properties!.namespace!.const === 'tickets.Ticket')!.if!;
    expect(modelIf.properties!.__meta__!.required).toEqual(['namespace']);
    const ctlIf = single.allOf!.find((c) => c.if!.properties!.__meta__!.properties!.schema!.const === 'controller')!.if!;
    expect(ctlIf.properties!.__meta__!.required).toEqual(['namespace', 'schema']);
  });

  it('lists field names as data keys, with nested selections for references and relations', () => {
    const then = thenFor('tickets.Ticket', 'model');
    expect(Object.keys(then.properties!)).toEqual(['title', 'status', 'priority', 'body', 'assignee', 'meta', 'created_at', 'documents', '__meta__']);
    expect(then.additionalProperties).toBe(false);
    expect(then.properties!.assignee!.anyOf).toContainEqual({ $ref: '#/definitions/select:system.User' });
    expect(then.properties!.documents!.anyOf).toContainEqual({ $ref: '#/definitions/select:tickets.Document' });
    expect(then.properties!.status!.description).toContain('one of "open", "pending", "closed"');
  });

  it('offers filter keys with every lookup suffix, through references, never write-only fields', () => {
    const filter = defs['filter:tickets.Ticket']!.properties!;
    for (const lookup of FILTER_LOOKUPS) {
      if (lookup !== 'exact') expect(filter).toHaveProperty(`priority__${lookup}`);
    }
    expect(filter).toHaveProperty('priority');
    expect(filter).toHaveProperty('id__in');
    expect(filter).toHaveProperty('assignee__username__icontains');
    expect(Object.keys(filter).some((k) => k.includes('password'))).toBe(false);
    expect(filter.priority__in).toMatchObject({ type: 'array', items: { type: 'integer' } });
    expect(filter.priority__range).toMatchObject({ minItems: 2, maxItems: 2 });
    expect(filter.body__isnull).toMatchObject({ type: 'boolean' });
    expect(filter.status!.anyOf).toContainEqual({ type: 'string', enum: ['open', 'pending', 'closed'] });
    expect(defs['filter:tickets.Ticket']!.additionalProperties).toBe(false);
    const meta = thenFor('tickets.Ticket', 'model').properties!.__meta__!.properties!;
    expect(meta.filter).toEqual({ $ref: '#/definitions/filter:tickets.Ticket' });
    expect(meta.exclude).toEqual({ $ref: '#/definitions/filter:tickets.Ticket' });
  });

  it('offers ordering entries ascending and descending, through references', () => {
    const entries = defs['ordering:tickets.Ticket']!.items!.anyOf![0]!.enum!;
    expect(entries).toEqual(expect.arrayContaining(['priority', '-priority', 'created_at', '-created_at', 'assignee.username', '-assignee.username', 'id', '-id']));
    expect(entries).not.toContain('meta');
  });

  it('offers uniqueObject fields, unique ones first', () => {
    const unique = Object.keys(defs['unique:system.User']!.properties!);
    expect(unique.slice(0, 2)).toEqual(['id', 'username']);
    expect(unique).not.toContain('password');
  });

  it('survives a describe without apps', () => {
    const empty = buildQuerySchema({ ...demoDescribe, apps: {} });
    expect(empty.definitions!.single!.allOf).toEqual([]);
  });
});

describe('a describe of 100,000 models (issue 22.6)', () => {
  const models: Record<string, unknown> = {};
  for (let i = 0; i < 100_000; i++) {
    models[`Model${i}`] = { fields: { name: { type: 'string', required: true, null: false, lookups: ['exact'] } }, relations: {}, search: [], ordering: [], intents: ['retrieve'], permissions: {} };
  }
  const big = { version: '1', workspace: 'big', mode: 'development', limits: { defaultLimit: 1, maxLimit: 1, maxFileBytes: 1, maxBodyBytes: 1 }, apps: { big: { models, controllers: {}, collections: {} } } } as unknown as DescribeResult;

  it('builds definitions only for the namespaces in use, and offers a bounded list', () => {
    const schema = buildQuerySchema(big, new Set(namespacesIn('{"__meta__": {"namespace": "big.Model77777", "intent": "retrieve"}}')));
    const defs = schema.definitions as Record<string, JsonSchema>;
    expect(Object.keys(defs).filter((k) => k.includes(':'))).toEqual(['select:big.Model77777', 'filter:big.Model77777', 'ordering:big.Model77777', 'groupPaths:big.Model77777', 'unique:big.Model77777']);
    // One namespace condition: the one in use (other conditions are not per namespace).
    expect((defs.single!.allOf as JsonSchema[]).filter((c) => 'then' in c).length).toBe(1);
    const ns = (defs.meta!.properties as Record<string, JsonSchema>).namespace!;
    const offered = ((ns.anyOf as JsonSchema[])[0]!.enum as string[]);
    expect(offered.length).toBe(1001);
    expect(offered[0]).toBe('big.Model77777');
    expect(ns.description).toContain('100,000 namespaces');
    expect(lazySchemaNote(big)).toContain('100,000 namespaces');
  });
});
