/**
 * Validates a `permissions` object (docs/protocol.md "Permissions and row scopes"): intent -> list of roles, plus optional row
 * scopes `scope: {role: {field: value}}` where a value may be `$user.<field>` of the caller.
 */
import type { FieldDef, Permissions } from './types.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import type { At } from './check.ts';
import { expectKeys, expectObject, expectStringArray, fail, show } from './check.ts';
import { valueProblem } from './field-codec.ts';

/** `retrieveOne`, `count` and grouped retrieves follow `retrieve`, so they take no entry of their own. */
export const PERMISSION_INTENTS = ['retrieve', 'create', 'update', 'delete'] as const;

/** Role names as held in `system.User.roles`; `anyone` and `authenticated` are built in. */
const ROLE = /^[A-Za-z][A-Za-z0-9_.:-]*$/;

export interface PermissionContext {
  /** The model's fields, or null for a NoSQL collection (scope keys are then document paths). */
  fields: ReadonlyMap<string, FieldDef> | null;
  /** Readable fields of system.User that `$user.<field>` may name. */
  userFields: ReadonlySet<string>;
}

export function resolvePermissions(raw: unknown, at: At, context: PermissionContext): Permissions | null {
  if (raw === undefined) return null;
  const spec = expectObject(raw, at, '"permissions"');
  expectKeys(spec, [...PERMISSION_INTENTS, 'scope'], at, '"permissions" (retrieveOne and count follow retrieve)');
  const intents: Record<string, string[]> = {};
  for (const intent of PERMISSION_INTENTS) {
    if (spec[intent] === undefined) continue;
    intents[intent] = [...expectStringArray(spec[intent], at, `permissions "${intent}"`)];
    for (const role of intents[intent]) checkRole(role, at);
  }
  const scope: Record<string, Record<string, JsonValue>> = {};
  if (spec.scope !== undefined) {
    for (const [role, rawRule] of Object.entries(expectObject(spec.scope, at, 'permissions "scope"'))) {
      checkRole(role, at);
      const rule = expectObject(rawRule, at, `permissions scope of role "${role}"`);
      scope[role] = {};
      for (const [key, value] of Object.entries(rule)) {
        checkScopeEntry(key, value, at, role, context);
        scope[role][key] = value as JsonValue;
      }
    }
  }
  return { intents, scope };
}

function checkRole(role: string, at: At): void {
  if (!ROLE.test(role)) fail(at, `role name ${show(role)} must start with a letter and hold only letters, digits and _ . : -`);
}

function checkScopeEntry(key: string, value: unknown, at: At, role: string, context: PermissionContext): void {
  const where = `permissions scope of role "${role}"`;
  // A model scope names a field: put it in the location; a collection's names a document path.
  const entryAt = context.fields === null ? at : { ...at, field: key };
  if (value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    fail(entryAt, `${where}: "${key}" must be a string, number, boolean, null or "$user.<field>", got ${show(value)}`);
  }
  if (context.fields === null && key.split('.').some((part) => part.length === 0 || part === '__proto__')) {
    fail(at, `${where} has an invalid document path ${show(key)}`);
  }
  const field = context.fields === null ? undefined : context.fields.get(key);
  if (context.fields !== null && key !== 'id' && (!field || field.writeOnly || field.hidden)) {
    fail(entryAt, `${where} names an unknown or unreadable field`);
  }
  if (typeof value === 'string' && value.startsWith('$user.')) {
    const userField = value.slice('$user.'.length);
    if (userField !== 'id' && !context.userFields.has(userField)) fail(entryAt, `${where}: "${value}" names no readable field of system.User`);
    return;
  }
  if (field && value !== null) {
    const problem = valueProblem(field.type, value);
    if (problem !== null) fail(entryAt, `${where}: value ${show(value)} must be ${problem}`);
  }
}
