// Who may do what (docs/protocol.md "Permissions and row scopes"): role grants per intent plus per-role row scopes for models and
// collections, and plain role grants for controller intents. Pure: the processors apply the result.
import type { JsonValue } from '../../shared/protocol.ts';
import type { Permissions } from '../workspace/types.ts';
import { ADMIN_ROLE } from './user.ts';
import type { AuthUser } from './user.ts';

export type RowScope = Record<string, JsonValue>;
export type Denied = { allowed: false; code: 'unauthenticated' | 'forbidden' };
/** `scopes: null` = every row; otherwise a row is reachable when it matches any of the scopes. */
export type Authorization = { allowed: true; scopes: null | RowScope[] } | Denied;

export const ANYONE = 'anyone';
export const AUTHENTICATED = 'authenticated';
/** Placeholders a scope value may hold, replaced by the caller's own values. */
export const USER_PLACEHOLDERS = ['$user.id', '$user.username'] as const;

// Reads share the `retrieve` grant: a count or a single record reveals what a list would. Intents
// arrive here as canonical keys (shared/intent-key.ts), never in another spelling.
const READ_INTENTS = new Set(['retrieve', 'retrieveOne', 'count']);
const DEFAULT_ROLES = [AUTHENTICATED];

function rolesFor(map: Readonly<Record<string, string[]>> | undefined, intent: string): string[] | undefined {
  // hasOwn: an intent named `constructor` must not find Object.prototype's.
  if (!map || !Object.hasOwn(map, intent)) return undefined;
  const roles = map[intent];
  return Array.isArray(roles) ? roles : undefined;
}

const grants = (role: string, user: AuthUser | null): boolean =>
  role === ANYONE || (user !== null && (role === AUTHENTICATED || user.roles.includes(role)));

const deny = (user: AuthUser | null): Denied => ({ allowed: false, code: user ? 'forbidden' : 'unauthenticated' });

const isAdmin = (user: AuthUser | null): boolean => user !== null && user.roles.includes(ADMIN_ROLE);

/** Replaces `$user.*` placeholders; undefined when the scope needs a user and there is none. */
function bindScope(scope: RowScope, user: AuthUser | null): RowScope | undefined {
  let unbound = false;
  const bind = (value: JsonValue): JsonValue => {
    if (typeof value === 'string' && (USER_PLACEHOLDERS as readonly string[]).includes(value)) {
      if (!user) {
        unbound = true;
        return null;
      }
      return value === '$user.id' ? user.id : user.username;
    }
    if (Array.isArray(value)) return value.map(bind);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bind(v)]));
    }
    return value;
  };
  const bound = bind(scope) as RowScope;
  // A user scope bound to null would match rows with no owner: an anonymous caller gets no rows instead.
  return unbound ? undefined : bound;
}

/**
 * `defaults` are the built-in grants (system.User's): an intent the workspace's permissions leave out
 * falls back to them before `authenticated`, so overriding `retrieve` alone does not open `delete`.
 */
export function authorize(
  perms: Permissions | null,
  intent: string,
  user: AuthUser | null,
  defaults?: Permissions,
): Authorization {
  if (isAdmin(user)) return { allowed: true, scopes: null };
  const key = READ_INTENTS.has(intent) ? 'retrieve' : intent;
  // Roles and scopes come from one source; an intent nobody lists keeps the workspace's scopes, so
  // the implicit `authenticated` grant is never wider than what the workspace wrote.
  const source = rolesFor(perms?.intents, key) ? perms : rolesFor(defaults?.intents, key) ? defaults : perms;
  const roles = rolesFor(source?.intents, key) ?? DEFAULT_ROLES;
  const scopes: RowScope[] = [];
  for (const role of roles) {
    if (!grants(role, user)) continue;
    const scope = source?.scope && Object.hasOwn(source.scope, role) ? source.scope[role] : undefined;
    // Union of grants: one grant without a scope reaches every row.
    if (!scope) return { allowed: true, scopes: null };
    const bound = bindScope(scope, user);
    if (bound) scopes.push(bound);
  }
  return scopes.length > 0 ? { allowed: true, scopes } : deny(user);
}

/** Controller intents: the class's `permissions` re-keyed by canonical intent (modules/controller-def.ts). */
export function authorizeController(
  permissionsMap: Readonly<Record<string, string[]>> | undefined,
  intent: string,
  user: AuthUser | null,
): { allowed: true } | Denied {
  if (isAdmin(user)) return { allowed: true };
  const roles = rolesFor(permissionsMap, intent) ?? DEFAULT_ROLES;
  return roles.some((role) => grants(role, user)) ? { allowed: true } : deny(user);
}
