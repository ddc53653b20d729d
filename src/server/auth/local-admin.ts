/**
 * The local admin (docs/protocol.md "The local admin"): a user with the role `admin` and no password
 * (nobody can sign in as it). Only the person who started the server holds it:
 * - browser mode: a launch key made at each start and printed as a URL; visiting it exchanges the key
 *   for an HttpOnly SameSite=Strict cookie and a secret the page keeps in its origin's storage; only
 *   both together, the secret in a header, are the local admin (web/launch-exchange.ts);
 * - the desktop app: a token handed to the process that started the server (Electron main), never
 *   to a page.
 * Nothing of it is written to disk: the key and the cookie live in this process's memory, and every
 * start moves the local admin's credential generation on, so no token issued before (by this start's
 * predecessors) is accepted any more.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { untracked } from '../db/sql-session.ts';
import { ensureUser } from './first-admin.ts';
import { credentialGeneration, revokeUserCredentials } from './revocation.ts';
import { issueToken } from './tokens.ts';

export const LOCAL_ADMIN = 'local-admin';
/**
 * The cookie the launch key is exchanged for, named with the server's port: cookies ignore ports, so
 * two `--local-admin` servers of one host in one browser would otherwise overwrite (and clear) each
 * other's.
 */
export function localAdminCookieName(port: number): string {
  return `jql_local_admin_${port}`;
}
/** The desktop app's token: it lives as long as the server process unless the app runs for a month. */
const TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export interface LocalAdminKeys {
  userId: number;
  /** The launch key (256 random bits), in the URL the server prints. */
  key: string;
  /** The value of the cookie a visit to the launch URL sets. */
  cookie: string;
  /** The page's half, handed to the page by the exchange and sent back in a header (shared/local-admin.ts). */
  pageSecret: string;
  /**
   * Whether the key was exchanged: it exchanges once (issue 30.2), so a key seen later (terminal
   * scrollback, a CI log) makes nobody the admin. A restart makes a new one.
   */
  exchanged: boolean;
}

/** Makes sure the local admin exists and makes this start's key and cookie. */
export async function createLocalAdmin(db: Database): Promise<LocalAdminKeys> {
  await ensureUser(db, LOCAL_ADMIN, null, ['admin']);
  const userId = localAdminId(db) as number;
  return { userId, key: randomBytes(32).toString('base64url'), cookie: randomBytes(32).toString('base64url'), pageSecret: randomBytes(32).toString('base64url'), exchanged: false };
}

/** Retires every token a previous start issued to the local admin (run at each start). */
export async function retireLocalAdminTokens(db: Database): Promise<void> {
  const id = localAdminId(db);
  if (id !== null) await db.write((statements) => revokeUserCredentials(untracked(statements), id));
}

/** A token of the local admin for the process that embeds the server (the desktop app's main). */
export async function localAdminToken(db: Database, secret: Uint8Array, keys: LocalAdminKeys): Promise<string> {
  const generation = db.read((statements) => credentialGeneration(untracked(statements), keys.userId));
  return (await issueToken(secret, { id: keys.userId, generation }, TOKEN_TTL_SECONDS)).token;
}

/**
 * What a request presents as the local admin: its cookie and the page's secret, joined (base64url has
 * no '.'). `presentedLocalAdmin` in http/local-admin-request.ts makes the same from a request.
 */
export function localAdminProof(cookie: string, pageSecret: string): string {
  return `${cookie}.${pageSecret}`;
}

/** Whether `presented` is this start's local admin proof. */
export function isLocalAdminProof(keys: LocalAdminKeys, presented: string): boolean {
  return sameSecret(localAdminProof(keys.cookie, keys.pageSecret), presented);
}

/** Compares a presented secret with this start's in constant time (hashes make the lengths equal). */
export function sameSecret(expected: string, presented: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(presented));
}

function localAdminId(db: Database): number | null {
  const row = db.read((statements) => untracked(statements).get('SELECT "id" FROM "system.User" WHERE "username" = ?', [LOCAL_ADMIN])) as { id: number } | undefined;
  return row?.id ?? null;
}
