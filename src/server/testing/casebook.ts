/**
 * Test fixture for the clone: a support "casebook" workspace no other test uses, with references two
 * levels deep (Comment -> Case -> Account -> Region), reverse relations, a file field, a writeOnly
 * required field, a hidden field, a unique field and a NoSQL collection, plus a seeding helper that
 * fills a running server through its own API (creates and multipart uploads), as a customer would.
 */
import type { FileServer } from './file-server.ts';
import { form } from './file-server.ts';

const ALL = { retrieve: ['authenticated'], create: ['admin'], update: ['admin'], delete: ['admin'] };

export const CASEBOOK_WORKSPACE = {
  name: 'casebook',
  apps: {
    crm: {
      models: {
        Region: {
          fields: { code: { type: 'string', required: true, unique: true, maxLength: 8 }, label: { type: 'string', null: true } },
          relations: { accounts: { many: 'crm.Account', via: 'region' } },
          ordering: ['code'],
          permissions: ALL,
        },
        Account: {
          fields: {
            name: { type: 'string', required: true, maxLength: 80 },
            email: { type: 'string', null: true },
            tier: { type: 'string', choices: ['gold', 'silver', 'bronze'], default: 'bronze' },
            region: { type: 'ref', to: 'crm.Region' },
            score: { type: 'number', null: true, min: 0, max: 100 },
            active: { type: 'boolean', default: true },
            opened: { type: 'date', null: true },
            profile: { type: 'json', null: true },
            pin: { type: 'string', writeOnly: true },
            internal_rank: { type: 'integer', hidden: true, null: true },
            created_at: { type: 'datetime', auto: 'create' },
          },
          relations: { cases: { many: 'crm.Case', via: 'account' } },
          search: ['name', 'email'],
          ordering: ['name'],
          indexes: [['tier', 'active']],
          permissions: ALL,
        },
        Case: {
          fields: {
            title: { type: 'string', required: true, maxLength: 120 },
            account: { type: 'ref', to: 'crm.Account' },
            owner: { type: 'ref', to: 'system.User', null: true },
            priority: { type: 'integer', default: 3, min: 1, max: 5 },
            attachment: { type: 'file', null: true },
            updated_at: { type: 'datetime', auto: 'update' },
          },
          relations: { comments: { many: 'crm.Comment', via: 'case' } },
          ordering: ['-priority'],
          permissions: ALL,
        },
        Comment: {
          fields: {
            case: { type: 'ref', to: 'crm.Case' },
            body: { type: 'text', required: true },
            author: { type: 'ref', to: 'system.User', null: true },
          },
          permissions: ALL,
        },
      },
      collections: { Activity: { permissions: { retrieve: ['authenticated'], create: ['admin'] } } },
    },
  },
};

export const CASEBOOK_ADMIN = { username: 'boss', password: 'boss-pass-42' };

export interface Seeded {
  regions: number[];
  accounts: number[];
  cases: number[];
}

/**
 * `accounts` accounts over two regions, each with two cases (one with an attachment) and a comment
 * per case, plus an activity document per case. Returns the ids made.
 */
export async function seedCasebook(server: FileServer, token: string, accounts: number): Promise<Seeded> {
  const create = async (namespace: string, data: Record<string, unknown>): Promise<number> => {
    const res = await server.post({ __meta__: { namespace, intent: 'create' }, ...data }, token);
    if (res.status !== 200) throw new Error(`create ${namespace} failed: ${JSON.stringify(res.body)}`);
    return res.body.__payload__.id as number;
  };
  const me = (await server.post({ __meta__: { namespace: 'system.User', intent: 'retrieve', filter: { username: CASEBOOK_ADMIN.username } }, id: null }, token)).body.__payload__[0].id as number;
  const helper = await create('system.User', { username: 'helper', email: 'helper@casebook.test', first_name: 'Hel', roles: ['agent'] });
  const regions = [await create('crm.Region', { code: 'EU', label: 'Europe' }), await create('crm.Region', { code: 'US', label: null })];
  const seeded: Seeded = { regions, accounts: [], cases: [] };
  for (let i = 0; i < accounts; i++) {
    const account = await create('crm.Account', {
      name: `Account ${String(i).padStart(3, '0')}`,
      // Two accounts share each address: redaction must keep equal values equal.
      email: `owner${Math.floor(i / 2)}@client${Math.floor(i / 2) % 3}.example`,
      tier: ['gold', 'silver', 'bronze'][i % 3],
      region: regions[i % 2],
      score: i % 4 === 0 ? null : 12.5 + i,
      active: i % 5 !== 0,
      opened: `2025-0${(i % 9) + 1}-1${i % 10}`,
      profile: { size: i, tags: ['t', `x${i}`], nested: { ok: i % 2 === 0 } },
      pin: `secret-${i}`,
    });
    seeded.accounts.push(account);
    for (let c = 0; c < 2; c++) {
      const data = { title: `Case ${i}.${c}`, account, owner: c === 0 ? me : helper, priority: ((i + c) % 5) + 1 };
      let id: number;
      if (c === 0) {
        const res = await server.put(form({ __meta__: { namespace: 'crm.Case', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { attachment: 'file' } } }, ...data }, { file: { data: `log of case ${i}: ${'#'.repeat(i * 10)}`, name: `case-${i}.log`, type: 'text/plain' } }), token);
        if (res.status !== 200) throw new Error(`upload failed: ${JSON.stringify(res.body)}`);
        id = res.body.__payload__.id as number;
      } else {
        id = await create('crm.Case', data);
      }
      seeded.cases.push(id);
      await create('crm.Comment', { case: id, body: `First reply on case ${i}.${c}`, author: c === 0 ? helper : null });
      const res = await server.post({ __meta__: { namespace: 'crm.Activity', intent: 'create', schema: 'nosql' }, case_id: id, kind: c === 0 ? 'call' : 'mail', who: { name: `Caller ${i}`, email: `caller${i}@phone.example` } }, token);
      if (res.status !== 200) throw new Error(`activity failed: ${JSON.stringify(res.body)}`);
    }
  }
  return seeded;
}

/** The query a support engineer would look at: cases with their account, its region, and comments. */
export const CASES_QUERY = {
  cases: {
    __meta__: { namespace: 'crm.Case', intent: 'retrieve', filter: { priority__gte: 2 }, limit: 500 },
    title: null,
    priority: null,
    attachment: null,
    updated_at: null,
    owner: { username: null, email: null },
    account: { name: null, email: null, tier: null, score: null, active: null, opened: null, profile: null, created_at: null, region: { code: null, label: null } },
    comments: { body: null, author: null },
  },
  calls: { __meta__: { namespace: 'crm.Activity', intent: 'retrieve', schema: 'nosql', filter: { kind: 'call' }, limit: 500 } },
};
