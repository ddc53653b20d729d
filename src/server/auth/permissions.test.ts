import { describe, expect, it } from 'vitest';
import type { Permissions } from '../workspace/types.ts';
import { authorize, authorizeController } from './permissions.ts';
import type { AuthUser } from './user.ts';

const user = (id: number, roles: string[] = [], username = `u${id}`): AuthUser => ({ id, username, roles, isActive: true });
const anonymous = null;
const plain = user(1);
const agent = user(2, ['agent'], 'agnes');
const admin = user(3, ['admin']);

// The example of docs/workspace.md.
const ticket: Permissions = {
  intents: { retrieve: ['anyone'], create: ['authenticated'], update: ['agent', 'admin'], delete: ['admin'] },
  scope: { agent: { assignee: '$user.id' } },
};

const all = { allowed: true, scopes: null };
const unauthenticated = { allowed: false, code: 'unauthenticated' };
const forbidden = { allowed: false, code: 'forbidden' };

describe('authorize', () => {
  it('lets `anyone` include anonymous callers', () => {
    expect(authorize(ticket, 'retrieve', anonymous)).toEqual(all);
    expect(authorize(ticket, 'retrieve', plain)).toEqual(all);
  });

  it('lets `authenticated` include any user but not anonymous (401)', () => {
    expect(authorize(ticket, 'create', plain)).toEqual(all);
    expect(authorize(ticket, 'create', anonymous)).toEqual(unauthenticated);
  });

  it('grants named roles to the users holding them; others get 403, anonymous 401', () => {
    expect(authorize(ticket, 'update', agent)).toEqual({ allowed: true, scopes: [{ assignee: 2 }] });
    expect(authorize(ticket, 'update', plain)).toEqual(forbidden);
    expect(authorize(ticket, 'update', anonymous)).toEqual(unauthenticated);
    expect(authorize(ticket, 'delete', agent)).toEqual(forbidden);
  });

  it('allows admin everything with no scope, even intents listing other roles or scoped roles', () => {
    const scopedAdmin = user(4, ['admin', 'agent']);
    for (const intent of ['retrieve', 'create', 'update', 'delete', 'count']) {
      expect(authorize(ticket, intent, admin)).toEqual(all);
      expect(authorize(ticket, intent, scopedAdmin)).toEqual(all);
    }
    expect(authorize({ intents: { delete: ['nobody'] }, scope: {} }, 'delete', admin)).toEqual(all);
  });

  // Intents reach authorize() as canonical keys (`retrieve_one` arrives as `retrieveOne`).
  it.each(['retrieveOne', 'count'])('makes %s follow retrieve', (intent) => {
    const perms: Permissions = { intents: { retrieve: ['agent'], retrieveOne: ['anyone'], count: ['anyone'] }, scope: {} };
    expect(authorize(perms, intent, agent)).toEqual(all);
    expect(authorize(perms, intent, plain)).toEqual(forbidden);
    expect(authorize(perms, intent, anonymous)).toEqual(unauthenticated);
  });

  it('allows `authenticated` for an intent missing from permissions', () => {
    const perms: Permissions = { intents: { retrieve: ['anyone'] }, scope: {} };
    expect(authorize(perms, 'delete', plain)).toEqual(all);
    expect(authorize(perms, 'delete', anonymous)).toEqual(unauthenticated);
  });

  it('allows `authenticated` for every intent of a model without permissions', () => {
    for (const intent of ['retrieve', 'retrieveOne', 'create', 'update', 'delete', 'count']) {
      expect(authorize(null, intent, plain)).toEqual(all);
      expect(authorize(null, intent, anonymous)).toEqual(unauthenticated);
    }
  });

  it('does not read intents from Object.prototype', () => {
    expect(authorize({ intents: {}, scope: {} }, 'constructor', anonymous)).toEqual(unauthenticated);
  });

  describe('row scopes', () => {
    const perms: Permissions = {
      intents: { retrieve: ['agent', 'reviewer', 'viewer'], update: ['agent', 'reviewer'] },
      scope: {
        agent: { assignee: '$user.id' },
        reviewer: { reviewer: { name: '$user.username' }, status__in: ['open', '$user.id'] },
      },
    };

    it('substitutes $user.id and $user.username, also nested in objects and arrays', () => {
      const reviewer = user(7, ['reviewer'], 'rita');
      expect(authorize(perms, 'update', reviewer)).toEqual({
        allowed: true,
        scopes: [{ reviewer: { name: 'rita' }, status__in: ['open', 7] }],
      });
    });

    it('is the union of the scopes of every role that allows the intent', () => {
      const both = user(8, ['agent', 'reviewer'], 'bo');
      expect(authorize(perms, 'update', both)).toEqual({
        allowed: true,
        scopes: [{ assignee: 8 }, { reviewer: { name: 'bo' }, status__in: ['open', 8] }],
      });
    });

    it('is lifted when any grant allowing the intent has no scope', () => {
      const agentViewer = user(9, ['agent', 'viewer']);
      expect(authorize(perms, 'retrieve', agentViewer)).toEqual(all);
    });

    it('ignores the scopes of roles that do not allow the intent', () => {
      const agentViewer = user(9, ['agent', 'viewer']);
      // viewer has no scope but cannot update, so the agent scope stands.
      expect(authorize(perms, 'update', agentViewer)).toEqual({ allowed: true, scopes: [{ assignee: 9 }] });
    });

    it('applies to `authenticated` and `anyone` grants too, keeping literal values', () => {
      const own: Permissions = {
        intents: { retrieve: ['anyone'], update: ['authenticated'] },
        scope: { anyone: { published: true }, authenticated: { owner: '$user.id', kind: '$user.other' } },
      };
      expect(authorize(own, 'retrieve', anonymous)).toEqual({ allowed: true, scopes: [{ published: true }] });
      expect(authorize(own, 'update', plain)).toEqual({ allowed: true, scopes: [{ owner: 1, kind: '$user.other' }] });
    });

    it('gives an anonymous caller nothing from a scope that needs a user (never binds to null)', () => {
      const own: Permissions = { intents: { retrieve: ['anyone'] }, scope: { anyone: { owner: '$user.id' } } };
      expect(authorize(own, 'retrieve', anonymous)).toEqual(unauthenticated);
      expect(authorize(own, 'retrieve', plain)).toEqual({ allowed: true, scopes: [{ owner: 1 }] });
    });

    it('keeps the workspace scopes on the implicit `authenticated` grant of a missing intent', () => {
      const own: Permissions = { intents: {}, scope: { authenticated: { owner: '$user.id' } } };
      expect(authorize(own, 'delete', plain)).toEqual({ allowed: true, scopes: [{ owner: 1 }] });
    });
  });

  describe('defaults (system.User)', () => {
    const userDefaults: Permissions = {
      intents: { retrieve: ['authenticated'], create: ['admin'], update: ['admin'], delete: ['admin'] },
      scope: {},
    };

    it('applies when the workspace gives no permissions', () => {
      expect(authorize(null, 'retrieve', plain, userDefaults)).toEqual(all);
      expect(authorize(null, 'retrieve', anonymous, userDefaults)).toEqual(unauthenticated);
      expect(authorize(null, 'create', plain, userDefaults)).toEqual(forbidden);
      expect(authorize(null, 'delete', admin, userDefaults)).toEqual(all);
    });

    it('are overridden per intent, and still cover the intents the override leaves out', () => {
      const override: Permissions = { intents: { retrieve: ['anyone'], update: ['authenticated'] }, scope: { authenticated: { id: '$user.id' } } };
      expect(authorize(override, 'retrieve', anonymous, userDefaults)).toEqual(all);
      expect(authorize(override, 'update', plain, userDefaults)).toEqual({ allowed: true, scopes: [{ id: 1 }] });
      expect(authorize(override, 'delete', plain, userDefaults)).toEqual(forbidden);
    });
  });
});

describe('authorizeController', () => {
  const map = { addDocument: ['editor'], ping: ['anyone'], whoami: ['authenticated'] };
  const editor = user(5, ['editor']);

  // The map and the intent are canonical keys here (modules/controller-def.ts re-keys the class's map).
  it('grants by role, keyed by canonical intent', () => {
    expect(authorizeController(map, 'addDocument', editor)).toEqual({ allowed: true });
    expect(authorizeController(map, 'addDocument', plain)).toEqual(forbidden);
    expect(authorizeController(map, 'addDocument', anonymous)).toEqual(unauthenticated);
  });

  it('follows anyone / authenticated', () => {
    expect(authorizeController(map, 'ping', anonymous)).toEqual({ allowed: true });
    expect(authorizeController(map, 'whoami', plain)).toEqual({ allowed: true });
    expect(authorizeController(map, 'whoami', anonymous)).toEqual(unauthenticated);
  });

  it('allows `authenticated` for an intent not in the map, or with no map', () => {
    expect(authorizeController(map, 'other', plain)).toEqual({ allowed: true });
    expect(authorizeController(map, 'other', anonymous)).toEqual(unauthenticated);
    expect(authorizeController(undefined, 'other', plain)).toEqual({ allowed: true });
    expect(authorizeController(undefined, 'other', anonymous)).toEqual(unauthenticated);
    expect(authorizeController(map, 'toString', anonymous)).toEqual(unauthenticated);
  });

  it('allows admin everything', () => {
    expect(authorizeController(map, 'addDocument', admin)).toEqual({ allowed: true });
    expect(authorizeController({ x: [] }, 'x', admin)).toEqual({ allowed: true });
  });
});
