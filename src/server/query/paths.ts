/**
 * Resolves field paths (`assignee.username__icontains`) against the workspace. Every name that later
 * reaches SQL comes out of here as a workspace `FieldDef`, never as request text.
 */
import { LRUCache } from 'lru-cache';
import { FILTER_LOOKUPS, type FilterLookup } from '../../shared/protocol.ts';
import { fail, type ErrorPath } from '../errors.ts';
import type { FieldDef, ModelDef, Workspace } from '../workspace/types.ts';
import { memosOn } from '../workspace/memos.ts';

/** The implicit primary key every model has. */
export const ID_FIELD: FieldDef = {
  name: 'id',
  column: 'id',
  type: 'integer',
  required: false,
  strictRequired: false,
  nullable: false,
  unique: true,
  writeOnly: false,
  hidden: false,
  protected: false,
  password: false,
};

const LOOKUPS = new Set<string>(FILTER_LOOKUPS);

export interface RefHop {
  field: FieldDef;
  target: ModelDef;
}

export interface ResolvedPath {
  /** Reference fields traversed from the root model, in order. */
  hops: RefHop[];
  field: FieldDef;
  /** The model that owns `field`. */
  owner: ModelDef;
  lookup: FilterLookup | null;
  /** Canonical dotted path without the lookup, e.g. `assignee.username`. */
  path: string;
}

/**
 * Gives the SQL expression of a resolved path's column. The JoinSet is the one for queries: it joins
 * (and checks) every reference a path enters; `site` says where the path came from, for refusals.
 */
export interface ColumnSource {
  column(resolved: ResolvedPath, site: { field: string; path: ErrorPath }): string;
}

export function fieldOf(model: ModelDef, name: string): FieldDef | undefined {
  return name === 'id' ? ID_FIELD : model.fields.get(name);
}

export function isReadable(field: FieldDef): boolean {
  return !field.writeOnly && !field.hidden;
}

/**
 * Resolved paths by model, by text: a request names the same few paths again and again, and a
 * resolution depends only on the (immutable) workspace. Only successes are kept; they are read-only.
 * The keys are request text and a valid path can be long (a reference to its own model can be
 * followed any number of times), so each model's cache is bounded by the characters it holds and
 * forgets the least recently used paths first.
 */
const resolved = new WeakMap<ModelDef, LRUCache<string, ResolvedPath>>();
export const MAX_RESOLVED_CHARS_PER_MODEL = 128 * 1024;
/** What an entry costs besides its text (the objects of its hops), in characters. */
const ENTRY_OVERHEAD = 64;

function resolvedOf(model: ModelDef): LRUCache<string, ResolvedPath> {
  let known = resolved.get(model);
  if (!known) {
    known = new LRUCache<string, ResolvedPath>({
      maxSize: MAX_RESOLVED_CHARS_PER_MODEL,
      // One path may take at most an eighth of the cache, so a few long ones cannot empty it.
      maxEntrySize: MAX_RESOLVED_CHARS_PER_MODEL / 8,
      sizeCalculation: (path, key) => ENTRY_OVERHEAD + key.length + path.path.length + ENTRY_OVERHEAD * path.hops.length,
    });
    resolved.set(model, known);
  }
  return known;
}

export function resolvePath(
  ws: Workspace,
  root: ModelDef,
  raw: string,
  options: { lookups: boolean; errorPath: ErrorPath },
): ResolvedPath {
  if (!memosOn(ws)) return resolveUncached(ws, root, raw, options);
  const known = resolvedOf(root);
  const key = options.lookups ? `l:${raw}` : `o:${raw}`;
  let path = known.get(key);
  if (!path) {
    path = resolveUncached(ws, root, raw, options);
    known.set(key, path);
  }
  return path;
}

function resolveUncached(
  ws: Workspace,
  root: ModelDef,
  raw: string,
  options: { lookups: boolean; errorPath: ErrorPath },
): ResolvedPath {
  const segments = raw.split('.').flatMap((part) => part.split('__'));
  const hops: RefHop[] = [];
  const names: string[] = [];
  let model = root;
  // `field` names the field the error is about, as a dotted path (`priorty`, `assignee.usrname`),
  // while `path` keeps the request's key as sent (`["filter", "priorty__gte"]`): docs/protocol.md "Errors".
  const where = (fieldPath: string) => ({ field: fieldPath || raw, path: options.errorPath });
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const last = i === segments.length - 1;
    const field = fieldOf(model, segment);
    if (!field || !isReadable(field)) {
      const hop = hops[hops.length - 1];
      if (options.lookups && last && hop && LOOKUPS.has(segment)) {
        // `assignee__isnull`: the lookup applies to the reference column itself.
        hops.pop();
        names.pop();
        const owner = hops.length === 0 ? root : (hops[hops.length - 1] as RefHop).target;
        return { hops, field: hop.field, owner, lookup: segment as FilterLookup, path: [...names, hop.field.name].join('.') };
      }
      const owner = model === root ? root.key : `${model.key} (through "${names.join('.')}")`;
      return fail('unknown_field', `Unknown field "${segment || raw}" on ${owner}`, where(segment && [...names, segment].join('.')));
    }
    names.push(segment);
    if (last) return { hops, field, owner: model, lookup: null, path: names.join('.') };
    if (field.type === 'ref') {
      const target = targetOf(ws, field);
      hops.push({ field, target });
      model = target;
      continue;
    }
    const rest = segments.slice(i + 1).join('__');
    if (options.lookups && i + 1 === segments.length - 1 && LOOKUPS.has(rest)) {
      return { hops, field, owner: model, lookup: rest as FilterLookup, path: names.join('.') };
    }
    return options.lookups
      ? fail('invalid_lookup', `Unknown lookup "${rest}" on field "${names.join('.')}"`, where(names.join('.')))
      : fail('unknown_field', `Field "${names.join('.')}" is not a reference, so it has no "${rest}"`, where(names.join('.')));
  }
  return fail('unknown_field', 'Empty field path', where(raw));
}

export function targetOf(ws: Workspace, field: FieldDef): ModelDef {
  const target = field.to ? ws.models.get(field.to) : undefined;
  if (!target) throw new Error(`Reference ${field.name} points at unknown model ${String(field.to)}`);
  return target;
}

/** Quotes an identifier that comes from the validated workspace. */
export function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
