/**
 * The local admin of the desktop app's embedded connection (WORKSPACE.md "The first users"): a user
 * with the role `admin` and no password (nobody can sign in as it), whose token is handed only to the
 * process that started the server, so a first start needs no login.
 */
import type { Database } from '../db/database.ts';
import { untracked } from '../db/sql-session.ts';
import { ensureUser } from './first-admin.ts';
import { issueToken } from './tokens.ts';

export const LOCAL_ADMIN = 'local-admin';
const TTL_SECONDS = 30 * 24 * 3600;

export async function localAdminToken(db: Database, secret: Uint8Array): Promise<string> {
  await ensureUser(db, LOCAL_ADMIN, null, ['admin']);
  const row = db.read((statements) => untracked(statements).get('SELECT "id" FROM "system.User" WHERE "username" = ?', [LOCAL_ADMIN])) as { id: number };
  return (await issueToken(secret, { id: row.id }, TTL_SECONDS)).token;
}
