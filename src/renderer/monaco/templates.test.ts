import { describe, expect, it } from 'vitest';
import { demoDescribe } from './describe.fixture.ts';
import { listNamespaces } from './describe-index.ts';
import { buildMultiTemplate, buildTemplate } from './templates.ts';

const info = (ns: string, kind = 'model') => listNamespaces(demoDescribe).find((n) => n.namespace === ns && n.kind === kind)!;

describe('buildTemplate', () => {
  it('writes a retrieve with the default ordering and some fields', () => {
    const doc = JSON.parse(buildTemplate(demoDescribe, info('tickets.Ticket'), 'retrieve'));
    expect(doc.__meta__).toEqual({ namespace: 'tickets.Ticket', intent: 'retrieve', filter: {}, ordering: ['-created_at'], limit: 20 });
    expect(Object.keys(doc)).toContain('title');
  });

  it('writes a create with the required fields and typed placeholders', () => {
    const doc = JSON.parse(buildTemplate(demoDescribe, info('system.User'), 'create'));
    expect(doc).toEqual({ __meta__: { namespace: 'system.User', intent: 'create' }, username: '', password: '' });
  });

  it('writes uniqueObject for one-record intents', () => {
    for (const intent of ['retrieveOne', 'update', 'delete']) {
      expect(JSON.parse(buildTemplate(demoDescribe, info('tickets.Ticket'), intent)).__meta__.uniqueObject).toEqual({ id: 1 });
    }
    expect(JSON.parse(buildTemplate(demoDescribe, info('tickets.Ticket'), 'update')).title).toBe('');
  });

  it('names the schema for controllers and collections', () => {
    expect(JSON.parse(buildTemplate(demoDescribe, info('system.User', 'controller'), 'login'))).toEqual({
      __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' },
      username: '',
      password: '',
    });
    expect(JSON.parse(buildTemplate(demoDescribe, info('chat.Message', 'nosql'), 'count')).__meta__.schema).toBe('nosql');
  });

  it('writes a multi-query', () => {
    expect(Object.keys(JSON.parse(buildMultiTemplate('tickets.Ticket')))).toEqual(['__root_meta__', 'first', 'total']);
  });
});
