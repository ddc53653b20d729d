// No request is ever authorized by, or answered with, data of a transaction that later rolled back
// (docs/protocol.md "Multi-query"): an admin's atomic multi-query makes `vic` an admin, then waits (a hook holds it
// open across an await, as a password hash or a controller would) and rolls back. Everything `vic`
// sends meanwhile, over real HTTP and WebSocket, goes through identity, permission checks, file access
// checks and reads that must see the committed state only: `vic` without any role.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, startFileServer, type FileServer } from '../testing/file-server.ts';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';
import { StreamClient } from '../testing/stream-client.ts';

interface PauseHandle {
  reached: () => void;
  released: Promise<void>;
}

declare global {
  var __jqlCommittedReadsPause: PauseHandle | undefined;
}

// The hook holds a create of `bank.Pause` open until the test releases it.
const HOOKS = `export async function before_create(event) {
  const pause = globalThis.__jqlCommittedReadsPause;
  if (event.model !== 'bank.Pause' || !pause) return;
  pause.reached();
  await pause.released;
}
`;

function bankWorkspace(): string {
  const dir = tempDir('jql-bank-');
  mkdirSync(join(dir, 'bank'));
  writeFileSync(join(dir, 'bank', 'hooks.mjs'), HOOKS);
  return writeWorkspace(
    {
      name: 'bank',
      apps: {
        bank: {
          hooks: './bank/hooks.mjs',
          models: {
            Vault: {
              fields: { name: { type: 'string', required: true, unique: true }, deed: { type: 'file', null: true } },
              permissions: { retrieve: ['admin'], create: ['admin'], update: ['admin'], delete: ['admin'] },
            },
            Pause: { fields: { name: { type: 'string', null: true } }, permissions: { create: ['admin'] } },
          },
        },
      },
    },
    dir,
  );
}

describe('requests while another request\'s transaction is open', () => {
  let s: FileServer;
  let root: string;
  let vic: string;
  let vicId: number;
  let deedUrl: string;

  beforeAll(async () => {
    s = await startFileServer({ workspace: bankWorkspace(), env: { JQL_ADMIN: 'root:root-password-1' } });
    root = await s.login('root', 'root-password-1');
    const created = await s.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'vic', password: 'vic-password-1', roles: [] }, root);
    vicId = created.body.__payload__.id;
    vic = await s.login('vic', 'vic-password-1');
    const vault = await s.put(
      form({ __meta__: { namespace: 'bank.Vault', intent: 'create', sideEffects: { fileFieldMapping: { deed: 'd' } } }, name: 'gold' }, { d: { data: 'deed bytes' } }),
      root,
    );
    expect(vault.status).toBe(200);
    deedUrl = vault.body.__payload__.deed.url;
  });
  afterAll(() => s.close());

  it('never authorizes or answers vic with the admin role a rolled-back transaction gave', async () => {
    let reached!: () => void;
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (reached = resolve));
    globalThis.__jqlCommittedReadsPause = { reached, released: new Promise<void>((resolve) => (release = resolve)) };
    try {
      const promote = s.post(
        {
          __root_meta__: { atomic: true },
          promote: { __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: vicId } }, roles: ['admin'] },
          wait: { __meta__: { namespace: 'bank.Pause', intent: 'create' }, name: 'held open' },
          clash: { __meta__: { namespace: 'bank.Vault', intent: 'create' }, name: 'gold' },
        },
        root,
      );
      await paused;
      // The transaction is open and says vic is an admin. vic's delete is identified now, then
      // waits for the write gate until the transaction has rolled back.
      const remove = s.post({ __meta__: { namespace: 'bank.Vault', intent: 'delete', uniqueObject: { name: 'gold' } } }, vic);
      await expect.poll(() => s.server.state.db.writes).toBe(2);
      // Reads are answered at once, from committed data.
      const [vaults, me, count, deed] = await Promise.all([
        s.post({ __meta__: { namespace: 'bank.Vault', intent: 'retrieve' } }, vic),
        s.post({ __meta__: { namespace: 'system.User', intent: 'retrieveOne', uniqueObject: { id: vicId } }, roles: null }, vic),
        s.post({ __meta__: { namespace: 'bank.Vault', intent: 'count' } }, vic),
        s.get(deedUrl, { authorization: `Bearer ${vic}` }),
      ]);
      expect(vaults.status).toBe(403);
      expect(me.body.__payload__.roles).toEqual([]);
      expect(count.status).toBe(403);
      expect(deed.status).toBe(403);
      const stream = await StreamClient.connect(s.url.replace(/^http/, 'ws') + '/jql-streams', { headers: { authorization: `Bearer ${vic}` } });
      try {
        expect(await stream.subscribe({ id: 'v', namespace: 'bank.Vault' })).toMatchObject({ type: 'error', error: { code: 'forbidden' } });
      } finally {
        await stream.close();
      }
      expect(s.server.state.db.inWrite).toBe(true);

      release();
      const multi = await promote;
      expect(multi.body.__payload__.promote.errors[0].code).toBe('rolled_back');
      expect(multi.body.__payload__.clash.errors[0].code).toBe('conflict');
      const removed = await remove;
      expect(removed.status).toBe(403);
      const still = await s.post({ __meta__: { namespace: 'bank.Vault', intent: 'count', filter: { name: 'gold' } } }, root);
      expect(still.body.__payload__).toEqual({ count: 1 });
    } finally {
      globalThis.__jqlCommittedReadsPause = undefined;
    }
  });

  it('a write whose __meta__ keys are re-cased still runs through the write gate', async () => {
    const res = await s.post({ __meta__: { Namespace: 'bank.Vault', Intent: 'create' }, name: 'recased' }, root);
    expect(res.status).toBe(200);
    expect(res.body.__payload__).toMatchObject({ name: 'recased' });
  });
});
