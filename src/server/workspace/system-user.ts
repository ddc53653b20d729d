/**
 * The built-in `system.User` model, and how a workspace extends it: an entry
 * `apps.system.models.User` may add fields and override permissions, nothing else (docs/workspace.md).
 * The merged definition then goes through the same validation as any other model.
 */
import type { RawField, RawPermissions } from './types.ts';
import { WorkspaceError } from './errors.ts';
import { checkFieldName, expectKeys, expectObject, isPlainObject } from './check.ts';

export const SYSTEM_APP = 'system';
export const SYSTEM_USER_MODEL = 'User';
export const SYSTEM_USER_KEY = `${SYSTEM_APP}.${SYSTEM_USER_MODEL}`;

export const SYSTEM_USER_FIELDS: Readonly<Record<string, RawField>> = {
  username: { type: 'string', required: true, unique: true, maxLength: 150 },
  email: { type: 'string', null: true },
  first_name: { type: 'string', null: true },
  last_name: { type: 'string', null: true },
  // Hashed by the auth layer. Nullable: a user may exist without a password (it cannot log in).
  password: { type: 'string', writeOnly: true, null: true },
  roles: { type: 'json', default: [] },
  is_active: { type: 'boolean', default: true },
  created_at: { type: 'datetime', auto: 'create' },
};

export const SYSTEM_USER_PERMISSIONS: Readonly<RawPermissions> = {
  retrieve: ['authenticated'],
  create: ['admin'],
  update: ['admin'],
  delete: ['admin'],
};

const OVERRIDE_KEYS = ['fields', 'permissions'] as const;

/**
 * The raw `system.User` model with the workspace's additions. Overridden permissions replace the
 * defaults intent by intent: overriding only `retrieve` must not silently open `create` to every
 * logged-in user (a missing intent would otherwise fall back to `authenticated`).
 */
export function mergeSystemUser(override: unknown, file: string | null): Record<string, unknown> {
  const at = { file, app: SYSTEM_APP, model: SYSTEM_USER_MODEL };
  const base = { fields: { ...SYSTEM_USER_FIELDS } as Record<string, unknown>, permissions: { ...SYSTEM_USER_PERMISSIONS } as unknown };
  if (override === undefined) return base;
  const entry = expectObject(override, at, 'the system.User entry');
  expectKeys(entry, OVERRIDE_KEYS, at, 'the built-in system.User (it only takes added "fields" and "permissions")');
  if (entry.fields !== undefined) {
    for (const [name, field] of Object.entries(expectObject(entry.fields, at, '"fields"'))) {
      checkFieldName(name, { ...at, field: name }, 'field');
      if (Object.hasOwn(SYSTEM_USER_FIELDS, name)) {
        throw new WorkspaceError('is a built-in field of system.User and cannot be redefined', { ...at, field: name });
      }
      base.fields[name] = field;
    }
  }
  if (entry.permissions !== undefined) {
    // A malformed value is passed through so that the common permissions check reports it.
    base.permissions = isPlainObject(entry.permissions) ? { ...SYSTEM_USER_PERMISSIONS, ...entry.permissions } : entry.permissions;
  }
  return base;
}
