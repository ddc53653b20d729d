/**
 * What a request carries through the processors: the server's shared state, the request's SQL
 * session (for counting and tracing), the caller, and the access check every read and write uses.
 */
import type { Extras, FileValue, JsonValue } from '../shared/protocol.ts';
import type { Database } from './db/database.ts';
import type { SqlSession } from './db/sql-session.ts';
import type { FileStore } from './files/file-store.ts';
import type { FieldDef, Permissions, Workspace } from './workspace/types.ts';

import type { Credentials, CredentialProof } from './auth/identify.ts';
import type { LocalAdminKeys } from './auth/local-admin.ts';
import type { LoginThrottle } from './auth/login-throttle.ts';
import type { PasswordChecks } from './auth/password-checks.ts';
import type { AuthUser } from './auth/user.ts';

export type { AuthUser };

/** Row scopes that apply to a caller for one intent: null = every row. */
export type Scopes = Array<Record<string, JsonValue>> | null;

export interface AccessControl {
  /** Throws `unauthenticated`/`forbidden`, or returns the row scopes that apply. */
  check(permissions: Permissions | null, intent: string, user: AuthUser | null, what: string): Scopes;
  /** A controller's `permissions`, keyed by canonical intent (`ControllerDef.permissions`, docs/protocol.md "Permissions and row scopes"). */
  checkController(permissions: Readonly<Record<string, string[]>>, intent: string, user: AuthUser | null, what: string): void;
  /** The same rules as `check`, answering instead of throwing (nested reads). */
  allows(permissions: Permissions | null, intent: string, user: AuthUser | null): { allowed: boolean; scopes: Scopes };
}

export interface FileResolver {
  /** File metadata for stored file ids, with URLs for the caller (signed when protected). */
  describe(sql: SqlSession, ids: string[], field: FieldDef): Map<string, FileValue>;
  /** A protected file's URL, signed now (a cached answer's files get fresh signatures). */
  signedUrl(id: string): string;
  /** Writes the metadata row of an uploaded file in the request's transaction (idempotent). */
  attach(ctx: RequestContext, file: UploadedFile): void;
  /** The file ids a row of `table` holds in its file columns (of removed fields too, by default). */
  heldBy(sql: SqlSession, table: string, id: number, columns?: readonly string[]): string[];
  /**
   * Called once a record no longer names these files (deleted, or its file replaced or cleared): in
   * the request's transaction, drops the rows no record names any more; once it commits, the blobs
   * no row names (files/file-references.ts).
   */
  release(ctx: RequestContext, ids: readonly string[]): void;
}

/** Mutations report here; the streams layer appends them to the event log in the same transaction. */
export interface MutationSink {
  record(sql: SqlSession, event: { kind: 'created' | 'updated' | 'deleted'; namespace: string; schema: 'model' | 'nosql'; id: number }): void;
  /** A controller's custom event. */
  emit?(sql: SqlSession, namespace: string, event: string, record: JsonValue): void;
}

export const HOOK_NAMES = ['before_create', 'after_create', 'before_update', 'after_update', 'before_delete', 'after_delete'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/** The hooks modules of the workspace's apps (docs/protocol.md "Processors"). */
export interface HookRunner {
  has(app: string, hook: HookName): boolean;
  /** `data` is the mutable write (before_*) and `record` the stored record (after_*, before_delete). */
  run(ctx: RequestContext, model: string, hook: HookName, event: { data?: Record<string, JsonValue>; record?: JsonValue }): Promise<void>;
}

/** Resolves the caller from the presented credentials (docs/protocol.md "Authentication"). */
export interface IdentityService {
  identify(
    credentials: Credentials,
    authClass: 'jwt' | 'session' | undefined,
  ): Promise<{ user: AuthUser | null; credential: { token?: string; session?: string }; error?: Error; proof?: CredentialProof }>;
  /**
   * Synchronously, on committed data: the user a credential verified earlier identifies now, or why
   * it no longer identifies anyone (revoked, logged out, disabled, deleted).
   */
  recheck(proof: CredentialProof): { user: AuthUser; error?: undefined } | { user: null; error: Error };
  /** Inside a write: once it commits (never if it rolls back), tells the listeners that this user changed. */
  userChanged(userId: number): void;
  /** Called right after the commit of any change to a user's credentials, roles or is_active. */
  onUserChange(listener: (userId: number) => void): () => void;
}

export interface ControllerClassLike {
  new (): object;
  permissions?: Record<string, string[]>;
  files?: Record<string, string[]>;
  readOnly?: string[];
}

/**
 * A controller class with its static maps read once, at start, under canonical intent keys
 * (`shared/intent-key.ts`): the handler, the roles, the file parts and the read-only flag of an
 * intent are all found by the same key, whatever spelling the class or the request used.
 */
export interface ControllerDef {
  namespace: string;
  Class: ControllerClassLike;
  /** Canonical intent -> the name of the method that handles it. */
  handlers: ReadonlyMap<string, string>;
  /** Canonical intent -> roles; an intent not listed allows `authenticated`. */
  permissions: Readonly<Record<string, string[]>>;
  /** Canonical intent -> part names (`'*'`: any); null when the class declares no `files` (every part). */
  files: ReadonlyMap<string, readonly string[]> | null;
  /** Canonical intents the class declares as changing nothing. */
  readOnly: ReadonlySet<string>;
}

export interface ServerState {
  ws: Workspace;
  /**
   * Whether requests may take the shortcuts that remember or skip work for speed (StateOptions
   * `shortcuts`, docs/architecture.md "Shortcuts"); off, every request takes the plain path.
   */
  shortcuts: boolean;
  /** The only door to SQLite: read(), write(), afterCommit() (db/database.ts). */
  db: Database;
  production: boolean;
  basePath: string;
  version: string;
  access: AccessControl;
  files: FileResolver;
  /** The content-addressed store of uploaded bytes (docs/protocol.md "Multipart uploads"). */
  fileStore: FileStore;
  mutations: MutationSink;
  hooks: HookRunner;
  identity: IdentityService;
  /** Failed logins per (client, username), in memory: throttling is about a burst of guesses (docs/protocol.md "Authentication"). */
  loginThrottle: LoginThrottle;
  controllers: Map<string, ControllerDef>;
  /** Runs one single query inside the current request (the controllers' data API). Throws on error. */
  dispatch(ctx: RequestContext, document: Record<string, JsonValue>): Promise<ProcessorOutput>;
  cache: AnswerCacheLike;
  /** Signs tokens (HS256) and file URLs (HMAC-SHA256). */
  secret: Uint8Array;
  /** With `localAdmin` (browser mode, the desktop app): this start's launch key and cookie. */
  localAdmin?: LocalAdminKeys;
}

/** The retrieve cache (docs/protocol.md "`__meta__` keys", cache/answer-cache.ts): exact with respect to transactions. */
export interface AnswerCacheLike {
  /** Looks `key` up for this request's caller and transaction, and opens the slot its answer goes in. */
  open(ctx: RequestContext, key: string): CacheRead;
  /**
   * The cache for another workspace applied in place (`serve --watch`): every answer kept so far is
   * dropped, and the new one's keys carry its digest, so an answer a request of the old workspace
   * still keeps after the change can never answer one of the new.
   */
  forWorkspace(digest: string): AnswerCacheLike;
}

export interface CacheRead {
  /** A fresh copy of the cached answer (the caller may change it freely), or null. */
  readonly hit: CachedAnswer | null;
  /**
   * Keeps the answer of a miss, read from `models` (every model and collection the query touched).
   * It is serialized at once, so later changes to `answer` are not kept; inside a write transaction
   * it is kept only once that commits, and never when it rolls back.
   */
  keep(models: Iterable<string>, answer: CachedAnswer): void;
}

export interface CachedAnswer {
  payload: JsonValue;
  /** Without `draw` and `cached`, which belong to each answer. */
  extras: Extras;
  /** Where protected file values sit in the payload: each answer signs their URLs afresh. */
  files?: FileSlot[];
}

export interface FileSlot {
  /** Keys from the payload down to the file value object. */
  path: Array<string | number>;
  /** The stored file's id. */
  id: string;
}

/** Cookies a handler sets on the HTTP answer (a session login), applied by the route. */
export interface CookieChange {
  name: string;
  value: string | null;
  maxAgeSeconds: number;
}

export interface RequestContext {
  state: ServerState;
  sql: SqlSession;
  user: AuthUser | null;
  /** The credential the request presented, so logout can revoke exactly it. */
  credential: { token?: string; session?: string };
  /** The client's address (the socket's peer): login throttling counts failures per client. */
  client?: string;
  /** The request's known-client cookie (auth/known-client.ts): a client that signed in before. */
  knownClient?: string;
  /** Headers a handler sets on the HTTP answer (`Retry-After` of a throttled login). */
  replyHeaders?: Record<string, string>;
  authenticationClass?: 'jwt' | 'session';
  cookies: CookieChange[];
  /** File parts of a multipart request, by part name (docs/protocol.md "Multipart uploads"). */
  files: Map<string, UploadedFile>;
  /** The passwords of the request's logins, verified before it took the write gate (system/login-query.ts). */
  passwordChecks?: PasswordChecks;
}

export interface UploadedFile {
  /** The stored file's id in the content-addressed store. */
  id: string;
  name: string;
  size: number;
  contentType: string;
  sha256: string;
  /** Where the bytes are while the request runs (read them, never write or move them). */
  path: string;
}

export interface ProcessorOutput {
  payload: JsonValue;
  message?: string | null;
  extras?: Extras | null;
  /** The intent to report, when it differs from the one asked (`retrieveOne` reports `retrieve`). */
  intent?: string;
  /** How to answer the next query of the same shape without parsing or compiling it (query/plan-cache.ts). */
  plan?: QueryPlan;
}

/**
 * A compiled read that answers other queries of its shape (query/plan-shape.ts) with their own
 * values, for callers with the grants it was made under.
 */
export interface QueryPlan {
  /** Whether the caller has exactly the grants the plan was made under (same row scopes, none refused). */
  admits(ctx: RequestContext): boolean;
  /**
   * Binds the values of `meta` (the `__meta__` of a query of the plan's shape, as sent) and answers
   * what runs the query, or null when the values compile to SQL of another form than the plan's (an
   * `isnull` flipped, a null for a value: another plan of the shape, or the full path, answers).
   * Throws when a value needs the full path (which reports it as it does).
   */
  bind(ctx: RequestContext, meta: Record<string, JsonValue>): (() => ProcessorOutput) | null;
}
