/**
 * The local admin of the desktop app's embedded connection (WORKSPACE.md "The first users"): a user
 * with the role `admin` and no password (nobody can sign in as it), whose token is handed only to the
 * process that started the server, so a first start needs no login.
 */
import type { Sqlite } from '../db/database.ts';
import { ensureUser } from './first-admin.ts';
import { issueToken } from './tokens.ts';

export const LOCAL_ADMIN = 'local-admin';
const TTL_SECONDS = 30 * 24 * 3600;

export async function localAdminToken(db: Sqlite, secret: Uint8Array): Promise<string> {
  await ensureUser(db, LOCAL_ADMIN, null, ['admin']);
  const row = db.prepare('SELECT "id" FROM "system.User" WHERE "username" = ?').get(LOCAL_ADMIN) as { id: number };
  return (await issueToken(secret, { id: row.id }, TTL_SECONDS)).token;
}
