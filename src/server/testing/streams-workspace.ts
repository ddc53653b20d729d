/**
 * The workspace the stream tests share: a public model with a writeOnly field and a reference, a
 * model readable only by agents within their own rows, a scoped collection, and a controller module
 * that writes then throws or emits a custom event.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeWorkspace } from './fixture.ts';

const OPEN = { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] };

export const STREAMS_WORKSPACE = {
  name: 'streams',
  limits: { maxStreamEvents: 500 },
  apps: {
    shop: {
      controllers: './controllers/shop.mjs',
      models: {
        Category: { fields: { name: { type: 'string', required: true } }, permissions: OPEN },
        Item: {
          fields: {
            name: { type: 'string', required: true },
            price: { type: 'integer', null: true },
            blurb: { type: 'text', null: true },
            secret: { type: 'string', null: true, writeOnly: true },
            category: { type: 'ref', to: 'shop.Category', null: true },
            unique_code: { type: 'string', null: true, unique: true },
          },
          permissions: OPEN,
        },
      },
    },
    crm: {
      models: {
        Note: {
          fields: { title: { type: 'string', required: true }, owner: { type: 'ref', to: 'system.User', null: true } },
          permissions: {
            retrieve: ['agent', 'admin'],
            create: ['authenticated'],
            update: ['authenticated'],
            delete: ['authenticated'],
            scope: { agent: { owner: '$user.id' } },
          },
        },
      },
    },
    chat: {
      collections: {
        Message: { permissions: { retrieve: ['agent'], create: ['authenticated'], update: ['authenticated'], delete: ['authenticated'], scope: { agent: { to: '$user.username' } } } },
      },
    },
  },
};

const CONTROLLERS = `
export class Tools {
  static permissions = { fail: ['anyone'], shout: ['anyone'] };
  async on_fail(ctx, args) {
    await ctx.data.create('shop.Item', { name: args.name });
    throw new Error('controller failed after writing');
  }
  async on_shout(ctx, args) {
    ctx.events.emit('shop.Item', 'shouted', { id: 0, words: args.words });
    return { payload: { ok: true } };
  }
}
`;

/** Writes the workspace and its controllers module to a fresh directory; answers the workspace file. */
export function writeStreamsWorkspace(limits: Record<string, number> = {}): string {
  const dir = tempDir('jql-streams-ws-');
  mkdirSync(join(dir, 'controllers'));
  writeFileSync(join(dir, 'controllers', 'shop.mjs'), CONTROLLERS);
  return writeWorkspace({ ...STREAMS_WORKSPACE, limits: { ...STREAMS_WORKSPACE.limits, ...limits } }, dir);
}

export const ADMIN = { username: 'root', password: 'root-password-1' };
export const ADMIN_ENV = { JQL_ADMIN: `${ADMIN.username}:${ADMIN.password}` };

export const item = (intent: string, data: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
  __meta__: { namespace: 'shop.Item', intent, ...meta },
  ...data,
});
