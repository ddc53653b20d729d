/**
 * The boundary for what the console asks a server on its own behalf: `/healthz` (is it a JQL server,
 * which version) and `system.User` login / verifyAuthentication (who is signed in). Names and
 * versions are server words: cleaned and cut (server-text.ts) before the sidebar shows them.
 */
import * as v from 'valibot';
import { serverLabel } from '../server-text.ts';
import { count, detailText, label, message, record } from './fields.ts';
import { lenientList, readPart, type Misfit } from './lenient.ts';

export interface Health {
  status: string;
  version: string;
  /** Changes when the server's workspace does: the console then fetches `describe` again. */
  digest?: string;
  /** `serve --watch` only: the last save the server did not apply, or nulls. */
  watch?: WatchReport;
}

export interface WatchReport {
  error: string | null;
  preview: string | null;
  /** Each change of the preview, when the server sends them (docs/workspace.md "Changing a workspace while it runs"). */
  changes: WatchChange[] | null;
  /** The save the console may apply or cancel (POST /workspace/apply with it); null when none may be. */
  pendingDigest: string | null;
}

/** One change of a migration preview, its sample values already turned into cleaned text. */
export interface WatchChange {
  kind: 'additive' | 'lossy' | 'refused';
  target: string;
  what: string;
  rows: number | null;
  sample: string[];
}

const SAMPLE_MAX = 10;
const changeSchema: v.GenericSchema<unknown, WatchChange> = v.pipe(
  record({
    kind: v.picklist(['additive', 'lossy', 'refused']),
    target: label,
    what: message,
    rows: v.optional(v.fallback(count, undefined as never)),
    // Values of the user's data: shown as JSON text, cleaned and cut like any server word.
    sample: v.optional(v.fallback(v.pipe(v.array(v.unknown()), v.maxLength(SAMPLE_MAX)), [])),
  }),
  v.transform((c): WatchChange => ({ kind: c.kind, target: c.target, what: c.what, rows: c.rows ?? null, sample: (c.sample ?? []).map(sampleText) })),
);
/** A value of the answer (JSON.parse made it, so it has a JSON text). */
function sampleText(value: unknown): string {
  return serverLabel(JSON.stringify(value) ?? 'null');
}
const digestText = v.pipe(v.string(), v.regex(/^[\w-]{1,128}$/));

export interface SignedInUser {
  id?: number;
  username: string;
  roles?: string[];
}

export interface LoginAnswer {
  token: string;
  expiresAt: string | null;
  user: SignedInUser | null;
}

// `workspace` and `watch` are extras: a server without them (or with a part that does not fit) is still healthy.
const healthSchema = record({
  status: v.optional(label, 'ok'),
  version: label,
  workspace: v.optional(v.fallback(record({ digest: label }), undefined as never)),
  watch: v.optional(
    v.fallback(
      record({
        error: v.nullable(message),
        preview: v.nullable(detailText),
        // Newer parts: a server without them (or with ones that do not fit) still shows its error and preview.
        changes: v.optional(v.fallback(v.nullable(v.pipe(v.array(changeSchema), v.maxLength(200))), null), null),
        pendingDigest: v.optional(v.fallback(v.nullable(digestText), null), null),
      }),
      undefined as never,
    ),
  ),
});

/** Null when the body is no JQL health answer (a proxy page, another service). */
export function readHealth(body: unknown): Health | null {
  const result = v.safeParse(healthSchema, body);
  if (!result.success) return null;
  const { status, version, workspace, watch } = result.output;
  return { status, version, ...(workspace ? { digest: workspace.digest } : {}), ...(watch ? { watch } : {}) };
}

const userSchema = v.pipe(
  record({
    id: v.optional(v.fallback(count, undefined as never)),
    username: label,
    roles: v.optional(lenientList(label, 'roles', 'a role name')),
  }),
  v.transform((u): SignedInUser => ({ username: u.username, ...(u.id !== undefined ? { id: u.id } : {}), ...(u.roles ? { roles: u.roles } : {}) })),
);

/** A user object (verifyAuthentication answers it bare or as `{user}`); null when there is none. */
export function readUser(payload: unknown): SignedInUser | null {
  const direct = v.safeParse(userSchema, payload);
  if (direct.success) return direct.output;
  if (typeof payload === 'object' && payload !== null && 'user' in payload) {
    const nested = v.safeParse(userSchema, (payload as { user: unknown }).user);
    if (nested.success) return nested.output;
  }
  return null;
}

const loginSchema = record({
  // A token is a credential, not shown: kept as sent, only bounded in length.
  token: v.pipe(v.string(), v.minLength(1), v.maxLength(16 * 1024)),
  expires_at: v.optional(v.fallback(v.nullable(v.pipe(v.string(), v.maxLength(64))), null), null),
  user: v.optional(v.unknown()),
});

/** The login payload; null (with a misfit) when it holds no token. */
export function readLogin(payload: unknown): { value: LoginAnswer | null; misfits: Misfit[] } {
  const { value, misfits } = readPart(loginSchema, payload, null, '__payload__', 'an object with a token');
  return { value: value ? { token: value.token, expiresAt: value.expires_at ?? null, user: readUser(value.user) } : null, misfits };
}
