// Test harness for the nosql processor: an in-memory database, a workspace with one collection
// (`chat.Message`), an access stub that allows, denies or scopes, and recorders for mutations.
import type { JsonValue } from '../../../shared/protocol.ts';
import type { AccessControl, AuthUser, MutationSink, ProcessorOutput, RequestContext, Scopes, ServerState } from '../../context.ts';
import { LoginThrottle } from '../../auth/login-throttle.ts';
import { AnswerCache } from '../../cache/answer-cache.ts';
import { installChangeCapture } from '../../cache/change-capture.ts';
import { Database } from '../../db/database.ts';
import { SqlSession, untracked, type SqlRunner } from '../../db/sql-session.ts';
import { fail, JqlFailure } from '../../errors.ts';
import { parseMeta } from '../../query/meta.ts';
import { DEFAULT_LIMITS } from '../../workspace/limits.ts';
import type { CollectionDef, Workspace } from '../../workspace/types.ts';
import { ensureNosqlTables, runNosql } from './index.ts';

export const NAMESPACE = 'chat.Message';

/** What the access stub answers: every row, some scopes, or a denial. */
export type AccessRule = { scopes: Scopes } | { deny: 'unauthenticated' | 'forbidden' };

export interface Harness {
  db: Database;
  /** Statements on the harness's in-memory database, for checking what was stored. */
  raw: SqlRunner;
  state: ServerState;
  events: Array<Parameters<MutationSink['record']>[1]>;
  checks: string[];
  /** Sets the access rule per intent (`*` for every intent). */
  access: Map<string, AccessRule>;
  /** Runs one query; `meta` is `__meta__` without schema/namespace unless given. */
  run(meta: Record<string, JsonValue>, data?: Record<string, JsonValue>): Promise<ProcessorOutput & { queries: number }>;
  /** Runs one query expecting a coded failure and returns its first error. */
  fails(meta: Record<string, JsonValue>, data?: Record<string, JsonValue>): Promise<{ code: string; message: string; field?: string; errors: number }>;
  user: AuthUser | null;
}

export function makeHarness(options: { limits?: { defaultLimit: number; maxLimit: number } } = {}): Harness {
  const db = new Database(':memory:');
  const statements = db.read((cache) => cache);
  const collection: CollectionDef = { key: NAMESPACE, app: 'chat', name: 'Message', permissions: null };
  const ws: Workspace = {
    name: 'test',
    file: null,
    limits: { ...DEFAULT_LIMITS, maxStreamEvents: 100, cacheEntries: 100, cacheBytes: 1 << 20, ...options.limits },
    apps: new Map([['chat', { name: 'chat', models: new Map(), collections: new Map([['Message', collection]]) }]]),
    models: new Map(),
    collections: new Map([[NAMESPACE, collection]]),
  };
  db.setup((connection) => {
    ensureNosqlTables(connection);
    installChangeCapture(connection, ws);
  });
  const events: Harness['events'] = [];
  const checks: string[] = [];
  const access = new Map<string, AccessRule>();
  const decide = (intent: string): AccessRule => access.get(intent) ?? access.get('*') ?? { scopes: null };
  const control: AccessControl = {
    check(_permissions, intent) {
      checks.push(intent);
      const rule = decide(intent);
      if ('deny' in rule) fail(rule.deny, `Denied ${intent}`);
      return rule.scopes;
    },
    checkController() {
      fail('forbidden', 'Not used by collections');
    },
    allows(_permissions, intent) {
      const rule = decide(intent);
      return 'deny' in rule ? { allowed: false, scopes: null } : { allowed: true, scopes: rule.scopes };
    },
  };
  const state: ServerState = {
    ws,
    shortcuts: true,
    db,
    production: false,
    basePath: '',
    version: 'test',
    access: control,
    files: { describe: () => new Map(), attach: () => undefined, signedUrl: () => fail('internal_error', 'Not used by collections'), heldBy: () => [], release: () => undefined },
    fileStore: {} as ServerState['fileStore'],
    mutations: { record: (_sql, event) => events.push(event) },
    hooks: { has: () => false, run: async () => undefined },
    identity: {
      identify: async () => ({ user: null, credential: {} }),
      recheck: () => ({ user: null, error: new Error('Not used by collections') }),
      userChanged: () => undefined,
      onUserChange: () => () => undefined,
    },
    loginThrottle: new LoginThrottle(),
    controllers: new Map(),
    dispatch: async () => fail('internal_error', 'Not used by collections'),
    secret: new Uint8Array(32),
    cache: new AnswerCache(db, { maxEntries: 100, maxBytes: 1 << 20 }),
  };
  const harness: Harness = {
    db,
    raw: untracked(statements),
    state,
    events,
    checks,
    access,
    user: { id: 7, username: 'ann', roles: [], isActive: true },
    async run(meta, data = {}) {
      const ctx: RequestContext = { state, sql: new SqlSession(statements, false), user: harness.user, credential: {}, cookies: [], files: new Map() };
      const output = await runNosql(ctx, parseMeta({ schema: 'nosql', namespace: NAMESPACE, ...meta }), data);
      return { ...output, queries: ctx.sql.queries };
    },
    async fails(meta, data = {}) {
      try {
        await harness.run(meta, data);
      } catch (error) {
        if (!(error instanceof JqlFailure)) throw error;
        const first = error.errors[0] as { code: string; message: string; field?: string };
        return { code: first.code, message: first.message, field: first.field, errors: error.errors.length };
      }
      throw new Error('expected a failure');
    },
  };
  return harness;
}

/** Creates documents in order, so their ids are 1..n. */
export async function seed(harness: Harness, documents: Array<Record<string, JsonValue>>): Promise<void> {
  for (const document of documents) await harness.run({ intent: 'create' }, document);
}

/** The ids of a retrieve's payload, in order. */
export async function ids(harness: Harness, meta: Record<string, JsonValue>): Promise<number[]> {
  const { payload } = await harness.run({ intent: 'retrieve', ...meta });
  return (payload as Array<{ id: number }>).map((record) => record.id);
}
