/** A describe result with the demo workspace's upload targets, for the upload form's unit tests. */
import { FILTER_LOOKUPS, type DescribeField, type DescribeResult } from '../../../shared/protocol.ts';

const f = (type: DescribeField['type'], extra: Partial<DescribeField> = {}): DescribeField => ({
  type,
  required: false,
  null: false,
  lookups: type === 'file' ? [] : [...FILTER_LOOKUPS],
  ...extra,
});

const MODEL_INTENTS = ['retrieve', 'retrieveOne', 'count', 'create', 'update', 'delete'];

export const uploadDescribe: DescribeResult = {
  version: '0.1.0',
  workspace: 'demo',
  mode: 'development',
  limits: { defaultLimit: 100, maxLimit: 1000, maxFileBytes: 1024, maxBodyBytes: 10 * 1024 * 1024 },
  apps: {
    tickets: {
      models: {
        Ticket: {
          fields: {
            title: f('string', { required: true, maxLength: 20 }),
            status: f('string', { choices: ['open', 'pending', 'closed'], default: 'open' }),
            priority: f('integer', { default: 3, min: 1, max: 5 }),
            body: f('text', { null: true }),
            assignee: f('ref', { to: 'system.User', null: true }),
            due: f('datetime', { null: true }),
            meta: f('json', { null: true }),
            attachment: f('file', { protected: true, null: true }),
            created_at: f('datetime', { auto: 'create' }),
          },
          relations: {},
          search: ['title', 'body'],
          ordering: ['-created_at'],
          intents: MODEL_INTENTS,
          permissions: {},
        },
        Document: {
          fields: {
            ticket: f('ref', { to: 'tickets.Ticket' }),
            title: f('string', { required: true, maxLength: 200 }),
            file: f('file'),
            created_at: f('datetime', { auto: 'create' }),
          },
          relations: {},
          search: ['title'],
          ordering: [],
          intents: MODEL_INTENTS,
          permissions: {},
        },
        Comment: {
          fields: { text: f('text', { required: true }) },
          relations: {},
          search: ['text'],
          ordering: [],
          intents: MODEL_INTENTS,
          permissions: {},
        },
      },
      controllers: {
        Document: { intents: ['upload'], permissions: {}, files: { upload: ['file'] } },
        Report: { intents: ['build'], permissions: {} },
      },
      collections: {},
    },
    learning: {
      models: {},
      controllers: {
        LearningContentRegistration: { intents: ['uploadPackage', 'list'], permissions: {}, files: { uploadPackage: ['package'] } },
      },
      collections: {},
    },
  },
};

export function file(name: string, bytes: number, type = 'application/octet-stream'): File {
  return new File([new Uint8Array(bytes)], name, { type });
}
