/**
 * Fills an empty demo database with `demoSeed()` on first start: users get the demo passwords the
 * README prints, model records are stored through the field codec that writes use, and
 * chat messages go into the NoSQL store. A database that already holds users is left alone.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import { hashPassword } from '../auth/password.ts';
import type { Database } from '../db/database.ts';
import { untracked } from '../db/sql-session.ts';
import { quote } from '../query/paths.ts';
import { toStored } from '../workspace/field-codec.ts';
import type { Workspace } from '../workspace/types.ts';
import { demoSeed } from './seed.ts';

/** username -> password of the demo users (printed in the README). */
export const DEMO_PASSWORDS: Readonly<Record<string, string>> = { admin: 'admin-demo', agent: 'agent-demo', viewer: 'viewer-demo' };

const SEEDED_AT = '2026-01-01T00:00:00.000Z';

export async function applyDemoSeed(database: Database, ws: Workspace): Promise<boolean> {
  const users = database.read((statements) => untracked(statements).get('SELECT count(*) AS n FROM "system.User"')) as { n: number };
  if (users.n > 0) return false;
  const hashes = new Map<string, string>();
  for (const [username, password] of Object.entries(DEMO_PASSWORDS)) hashes.set(username, await hashPassword(password));
  // At start, before any request: the seed is schema-time work on the writer, in one transaction.
  database.setup((db) => {
    for (const { model: key, records } of demoSeed()) {
      const collection = ws.collections.get(key);
      if (collection) {
        const insert = db.prepare('INSERT INTO jql_documents (collection, body, created_at, updated_at) VALUES (?, ?, ?, ?)');
        for (const record of records) insert.run(key, JSON.stringify(record), SEEDED_AT, SEEDED_AT);
        continue;
      }
      const model = ws.models.get(key);
      if (!model) throw new Error(`Demo seed names unknown model ${key}`);
      for (const record of records) {
        const values: Record<string, JsonValue> = { ...record };
        for (const field of model.fields.values()) {
          if (values[field.name] !== undefined) continue;
          if (field.default !== undefined) values[field.name] = field.default;
          else if (field.auto) values[field.name] = SEEDED_AT;
        }
        const columns = Object.keys(values).filter((name) => model.fields.has(name));
        const params = columns.map((name) => toStored(model.fields.get(name)!.type, values[name] as JsonValue));
        if (key === 'system.User' && typeof values.username === 'string' && hashes.has(values.username)) {
          columns.push('password');
          params.push(hashes.get(values.username) as string);
        }
        db.prepare(`INSERT INTO ${quote(model.table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...params);
      }
    }
  });
  return true;
}
