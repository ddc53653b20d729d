/**
 * Query plans by shape (issue 14.2). A read whose shape (plan-shape.ts) was answered before runs its
 * plan: no parsing of `__meta__`, no resolving of paths, no compiling; the plan binds the request's
 * own values (checked as the full path checks them) and runs.
 *
 * A plan is made for the grants its first caller had on every model the query touches (query/reach.ts):
 * the row scopes in its SQL and the refusals it did not need. Each request's grants are worked out
 * again (the same rule, readGrant) and the plan runs only when they are the same; a caller with other
 * grants gets a plan of its own, and one the query is refused to takes the full path, which refuses.
 * A plan that cannot bind a request's values (a value of the wrong type, a limit below 0) gives the
 * request back to the full path too, so every error is answered exactly as without plans.
 *
 * Values can change the SQL's form (`{"due": null}` is IS NULL, `{"due": "2030-01-01"}` an equality):
 * the compiler writes the form of every WHERE it builds (query/filter.ts Binding), and a plan runs only
 * for values of its own form; values of another form find the plan of theirs, or take the full path,
 * which makes one. So the key of a plan is its shape, its grants and its form.
 *
 * The cache belongs to one workspace (ServerState): a workspace that changes is a new state, with no
 * plan. It is bounded: at most MAX_SHAPES shapes (least recently used out), MAX_VARIANTS plans each.
 */
import { LRUCache } from 'lru-cache';
import type { RequestContext, Scopes, ServerState } from '../context.ts';
import type { ProcessorOutput, QueryPlan } from '../context.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import type { ModelDef } from '../workspace/types.ts';
import type { ParsedMeta } from './meta.ts';
import { readGrant, type Reader } from './reach.ts';

const MAX_SHAPES = 2000;
/**
 * Plans of one shape for callers with different grants (roles, or scopes bound to a user) and for
 * values of different SQL forms (`null` or a value, `isnull` true or false).
 */
const MAX_VARIANTS = 32;

/** The grants a plan was made under: the caller's on every model the query touches. */
export class PlanGrants {
  private readonly models: ModelDef[];
  /** Each model's row scopes (null: every row), as JSON. */
  private readonly scopes: string[];

  constructor(reader: Reader, models: Iterable<string>) {
    const { ws } = reader.state;
    this.models = [...models].map((key) => ws.models.get(key)).filter((model): model is ModelDef => model !== undefined);
    this.scopes = this.models.map((model) => scopesKey(readGrant(reader, model).scopes));
  }

  /** Whether `reader` has exactly these grants now: allowed on each model, with the same row scopes. */
  holdFor(reader: Reader): boolean {
    for (let i = 0; i < this.models.length; i++) {
      const grant = readGrant(reader, this.models[i] as ModelDef);
      if (!grant.allowed || scopesKey(grant.scopes) !== this.scopes[i]) return false;
    }
    return true;
  }
}

function scopesKey(scopes: Scopes): string {
  return scopes === null ? '' : JSON.stringify(scopes);
}

/** A plan with what the dispatcher needs of the parsed `__meta__` it was made from. */
export interface CachedPlan {
  plan: QueryPlan;
  meta: ParsedMeta;
}

export interface PlanStats {
  /** Shapes held. */
  size: number;
  /** Requests answered by a plan. */
  hits: number;
  /** Plans made. */
  built: number;
}

export class PlanCache {
  private readonly shapes: LRUCache<string, CachedPlan[]>;
  private hits = 0;
  private built = 0;

  constructor(maxShapes = MAX_SHAPES) {
    this.shapes = new LRUCache({ max: maxShapes });
  }

  /**
   * The first plan of this shape that admits the caller and whose SQL has the form of the request's
   * values (QueryPlan.bind), bound to them; null when none does. Throws where a value needs the full
   * path.
   */
  bind(shape: string, ctx: RequestContext, meta: Record<string, JsonValue>): { cached: CachedPlan; run: () => ProcessorOutput } | null {
    const plans = this.shapes.get(shape);
    if (!plans) return null;
    for (const cached of plans) {
      if (!cached.plan.admits(ctx)) continue;
      const run = cached.plan.bind(ctx, meta);
      if (run) return { cached, run };
    }
    return null;
  }

  /** Whether a plan of this shape exists (so a query of it was parsed as a read before). */
  knows(shape: string): boolean {
    return this.shapes.has(shape);
  }

  /** Counts a request a plan answered. */
  hit(): void {
    this.hits++;
  }

  learn(shape: string, cached: CachedPlan): void {
    const plans = this.shapes.get(shape) ?? [];
    if (plans.length >= MAX_VARIANTS) plans.shift();
    plans.push(cached);
    this.shapes.set(shape, plans);
    this.built++;
  }

  stats(): PlanStats {
    return { size: this.shapes.size, hits: this.hits, built: this.built };
  }
}

const caches = new WeakMap<ServerState, PlanCache>();

/** The plans of one server state, i.e. of one workspace: another workspace starts with none. */
export function plansOf(state: ServerState): PlanCache {
  let cache = caches.get(state);
  if (!cache) caches.set(state, (cache = new PlanCache()));
  return cache;
}
