/**
 * The models a query touches (docs/protocol.md "Field selection", "Permissions and row scopes"): its root model, every model a path of `filter`,
 * `exclude`, `ordering`, `groupBy` or an aggregate enters through a reference (query/joins.ts), every
 * model a nested selection reads (query/selection.ts), and system.User when a row scope bound to the
 * caller applies. One set per query, filled as the query is compiled, read by the permission check
 * (here) and by the cache: a change to any of these models invalidates the answer.
 *
 * Entering a model is where the caller's `retrieve` on it is checked, whichever clause enters it: a
 * selection and a join use this one rule, so a model nobody may select cannot be grouped, filtered or
 * ordered by either.
 */
import type { AccessControl, AuthUser, Scopes, ServerState } from '../context.ts';
import { fail, type ErrorPath } from '../errors.ts';
import { SYSTEM_USER_KEY } from '../workspace/system-user.ts';
import type { ModelDef } from '../workspace/types.ts';

/** Who reads: a request, or a stream subscriber. */
export interface Reader {
  state: Pick<ServerState, 'ws'> & { access: AccessControl };
  user: AuthUser | null;
}

/** Where in the request a path entered a model: reported with a refusal. */
export interface PathSite {
  /** The request's own text for the path (a filter key, an ordering entry, a selection path). */
  field: string;
  path: ErrorPath;
}

/**
 * The models a row scope reads besides its own: a scope applied to a signed-in caller may be bound to
 * the caller's row (`$user.username`), so renaming the user changes which rows it reaches.
 */
export function scopeReads(reader: Reader, scopes: Scopes): readonly string[] {
  return scopes !== null && reader.user !== null ? [SYSTEM_USER_KEY] : [];
}

/** May `reader` read `model`, and which rows of it: the rule for every model a query enters. */
export function readGrant(reader: Reader, model: ModelDef): { allowed: boolean; scopes: Scopes } {
  return reader.state.access.allows(model.permissions, 'retrieve', reader.user);
}

export class ModelReach {
  readonly reader: Reader;
  readonly root: ModelDef;
  private readonly touched = new Set<string>();
  /** Row scopes of each entered model (null: every row), so each is checked once per query. */
  private readonly grants = new Map<string, Scopes>();

  /** `rootScopes`: the caller's row scopes of the root for the query's intent. */
  constructor(reader: Reader, root: ModelDef, rootScopes: Scopes = null) {
    this.reader = reader;
    this.root = root;
    this.touched.add(root.key);
    for (const key of scopeReads(reader, rootScopes)) this.touched.add(key);
  }

  /** Every model the query touches, its root first. */
  get models(): ReadonlySet<string> {
    return this.touched;
  }

  /**
   * Enters `model` through `through` (the path up to that model): 401 for an anonymous caller and 403
   * for a signed-in one who may not retrieve it, before anything runs; otherwise the caller's row
   * scopes of it, which the path must respect.
   */
  enter(model: ModelDef, through: string, site: PathSite): Scopes {
    const known = this.grants.get(model.key);
    if (known !== undefined) return known;
    const grant = readGrant(this.reader, model);
    if (!grant.allowed) {
      const signedIn = this.reader.user !== null;
      const message = signedIn
        ? `Your roles do not allow reading ${model.key}, which "${through}" reaches`
        : `Sign in to read ${model.key}, which "${through}" reaches`;
      fail(signedIn ? 'forbidden' : 'unauthenticated', message, site);
    }
    this.grants.set(model.key, grant.scopes);
    this.touched.add(model.key);
    for (const key of scopeReads(this.reader, grant.scopes)) this.touched.add(key);
    return grant.scopes;
  }
}
