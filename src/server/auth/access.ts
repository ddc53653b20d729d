/**
 * The AccessControl every processor uses: the permission rules of `permissions.ts`, turned into
 * coded errors (401 for anonymous callers, 403 for signed-in ones).
 */
import type { AccessControl } from '../context.ts';
import { fail } from '../errors.ts';
import { authorize, authorizeController } from './permissions.ts';

export function createAccessControl(): AccessControl {
  const denied = (code: 'unauthenticated' | 'forbidden', what: string, intent: string): never =>
    fail(code, code === 'unauthenticated' ? `Sign in to ${intent} ${what}` : `Your roles do not allow ${intent} on ${what}`);
  return {
    check(permissions, intent, user, what) {
      const result = authorize(permissions, intent, user);
      if (!result.allowed) return denied(result.code, what, intent);
      return result.scopes;
    },
    allows(permissions, intent, user) {
      const result = authorize(permissions, intent, user);
      return result.allowed ? { allowed: true, scopes: result.scopes } : { allowed: false, scopes: [] };
    },
    checkController(permissions, intent, user, what) {
      const result = authorizeController(permissions, intent, user);
      if (!result.allowed) denied(result.code, what, intent);
    },
  };
}
