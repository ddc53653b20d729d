/** A describe result shaped like the demo workspace's, for unit tests of schema and templates. */
import { FILTER_LOOKUPS, type DescribeField, type DescribeResult } from '../../shared/protocol.ts';

const f = (type: DescribeField['type'], extra: Partial<DescribeField> = {}): DescribeField => ({
  type,
  required: false,
  null: false,
  lookups: [...FILTER_LOOKUPS],
  ...extra,
});

export const demoDescribe: DescribeResult = {
  version: '0.1.0',
  workspace: 'demo',
  mode: 'development',
  limits: { defaultLimit: 100, maxLimit: 1000, maxFileBytes: 1, maxBodyBytes: 1 },
  apps: {
    system: {
      models: {
        User: {
          fields: {
            username: f('string', { required: true, unique: true }),
            email: f('string', { null: true }),
            password: f('string', { writeOnly: true }),
            roles: f('json', { null: true }),
          },
          relations: {},
          search: ['username'],
          ordering: ['username'],
          intents: ['retrieve', 'retrieveOne', 'create', 'update', 'delete', 'count'],
          permissions: {},
        },
      },
      controllers: {
        User: { intents: ['login', 'logout', 'verifyAuthentication'], permissions: {} },
        Schema: { intents: ['describe'], permissions: {} },
      },
      collections: {},
    },
    tickets: {
      models: {
        Ticket: {
          fields: {
            title: f('string', { required: true, maxLength: 200 }),
            status: f('string', { choices: ['open', 'pending', 'closed'], default: 'open' }),
            priority: f('integer', { default: 3 }),
            body: f('text', { null: true }),
            assignee: f('ref', { to: 'system.User', null: true }),
            meta: f('json', { null: true }),
            created_at: f('datetime', { auto: 'create' }),
          },
          relations: { documents: { many: 'tickets.Document', via: 'ticket' } },
          search: ['title', 'body'],
          ordering: ['-created_at'],
          intents: ['retrieve', 'retrieveOne', 'create', 'update', 'delete', 'count'],
          permissions: {},
        },
        Document: {
          fields: { name: f('string', { required: true }), ticket: f('ref', { to: 'tickets.Ticket' }) },
          relations: {},
          search: ['name'],
          ordering: [],
          intents: ['retrieve', 'retrieveOne', 'create', 'update', 'delete', 'count'],
          permissions: {},
        },
      },
      controllers: { Document: { intents: ['upload'], permissions: {} } },
      collections: {},
    },
    chat: {
      models: {},
      controllers: {},
      collections: { Message: { intents: ['retrieve', 'retrieveOne', 'create', 'update', 'delete', 'count'], permissions: {} } },
    },
  },
};
