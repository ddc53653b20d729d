/**
 * Which records the clone copies. Level 0 is every record the query's reads match. Each level up to
 * `depth` then adds, for the records the previous level found, the records their references point at
 * (`id__in`) and the records of their reverse relations (`<via>__in`): one batch of reads per level
 * (batch-fetch.ts), never a request per record. After the last level, references are followed until
 * every copied record's references are copied too, so no value of a copied record is cut; these
 * extra levels are reads by id, usually few records (the users, folders and parents records point at).
 * A record the source does not answer (gone, or outside the caller's row scope) is noted as missing.
 */
import type { JsonObject } from '../../shared/protocol.ts';
import type { ModelDef, Workspace } from '../workspace/types.ts';
import { fetchBatches, type FetchFailure, type FetchSpec, type IncompleteRead } from './batch-fetch.ts';
import type { RootQuery } from './query-roots.ts';
import { RemoteError, type RemoteServer } from './remote-server.ts';

/** Ids in one `__in` read at most: keeps a request's body small whatever the source's page size. */
const MAX_IDS_PER_READ = 1000;

export interface WalkOptions {
  ws: Workspace;
  roots: readonly RootQuery[];
  depth: number;
  maxRecords: number;
  pageSize: number;
  perRequest: number;
  /** Called after each page with the counts so far. */
  onProgress?: (progress: WalkProgress) => void;
}

export interface WalkProgress {
  level: number;
  /** Per namespace: records copied so far, and those plus what the reads in flight still owe. */
  counts: Map<string, { fetched: number; total: number }>;
}

export interface WalkResult {
  /** Namespace -> id -> the record as the source answered it (every readable field). */
  records: Map<string, Map<number, JsonObject>>;
  failures: FetchFailure[];
  /** Reads stopped because the source paged wrongly: the copy lacks the rest of what they match. */
  incomplete: IncompleteRead[];
  /** Namespace -> ids that were asked for by reference and not answered. */
  missing: Map<string, Set<number>>;
  /** The record cap stopped the walk before it was done. */
  truncated: boolean;
  /** Levels that were fetched (each one batch of reads): the query's, up to `depth`, then references. */
  levels: number;
}

export async function walk(remote: RemoteServer, options: WalkOptions): Promise<WalkResult> {
  const records = new Map<string, Map<number, JsonObject>>();
  const missing = new Map<string, Set<number>>();
  const counts = new Map<string, { fetched: number; total: number }>();
  const failures: FetchFailure[] = [];
  const incomplete: IncompleteRead[] = [];
  let total = 0;
  let truncated = false;
  let level = 0;
  let levels = 0;
  let frontier = new Map<string, JsonObject[]>();

  // Records still expected from reads in flight: a model's total is what it has plus what they owe.
  const owed = new Map<FetchSpec, number>();
  const countOf = (namespace: string) => {
    let count = counts.get(namespace);
    if (!count) counts.set(namespace, (count = { fetched: 0, total: 0 }));
    return count;
  };
  const report = () => {
    for (const count of counts.values()) count.total = count.fetched;
    for (const [spec, left] of owed) countOf(spec.namespace).total += left;
    options.onProgress?.({ level, counts });
  };
  const run = async (specs: FetchSpec[]): Promise<Map<string, JsonObject[]>> => {
    const found = new Map<string, JsonObject[]>();
    if (specs.length === 0) return found;
    levels += 1;
    failures.push(
      ...(await fetchBatches(remote, specs, {
        pageSize: options.pageSize,
        perRequest: options.perRequest,
        onPage(spec, page, pageTotal) {
          const count = countOf(spec.namespace);
          let known = records.get(spec.namespace);
          if (!known) records.set(spec.namespace, (known = new Map()));
          for (const record of page) {
            const id = record.id as number;
            if (known.has(id)) continue;
            if (total >= options.maxRecords) {
              truncated = true;
              break;
            }
            known.set(id, record);
            total += 1;
            count.fetched += 1;
            if (!found.has(spec.namespace)) found.set(spec.namespace, []);
            found.get(spec.namespace)!.push(record);
          }
          // An estimate while reads are in flight (two reads may owe the same record); exact at the end.
          const left = pageTotal !== null ? pageTotal - page.length : (owed.get(spec) ?? 0) - page.length;
          owed.set(spec, Math.max(0, left));
          report();
          return !truncated;
        },
        onIncomplete: (report) => incomplete.push(report),
      })),
    );
    for (const spec of specs) owed.delete(spec);
    report();
    return found;
  };

  const chunk = Math.min(options.pageSize, MAX_IDS_PER_READ);
  frontier = await run(options.roots.map(rootSpec));
  // Without the query's own records there is nothing to reproduce: that is the clone failing.
  const refused = failures.find((failure) => failure.spec.root);
  if (refused) throw new RemoteError(0, refused.code, `The source refused ${refused.spec.label}: ${refused.code}: ${refused.message}`);
  for (level = 1; level <= options.depth && !truncated && frontier.size > 0; level += 1) {
    frontier = await run([...referenceSpecs(options.ws, frontier, records, missing, chunk), ...reverseSpecs(options.ws, frontier, chunk)]);
  }
  // References of everything copied so far, until none points outside the copy.
  for (; !truncated; level += 1) {
    const everything = new Map([...records].map(([namespace, byId]) => [namespace, [...byId.values()]]));
    const specs = referenceSpecs(options.ws, everything, records, missing, chunk);
    if (specs.length === 0) break;
    await run(specs);
  }
  const result = { records, failures, incomplete, missing, truncated, levels };
  settleMissing(result);
  return result;
}

function rootSpec(root: RootQuery): FetchSpec {
  const spec: FetchSpec = { namespace: root.namespace, schema: root.schema, root: true, label: root.name === null ? `${root.namespace} (the query)` : `${root.namespace} (subquery "${root.name}")` };
  if (root.filter) spec.filter = root.filter;
  if (root.exclude) spec.exclude = root.exclude;
  if (root.search !== undefined) spec.search = root.search;
  return spec;
}

/**
 * Reads by id of the records that `from` references and that are not copied yet. Ids asked for are
 * noted as missing first; the ones the source answers are simply found in the copy later.
 */
function referenceSpecs(ws: Workspace, from: Map<string, JsonObject[]>, records: Map<string, Map<number, JsonObject>>, missing: Map<string, Set<number>>, chunk: number): FetchSpec[] {
  const wanted = new Map<string, Set<number>>();
  for (const [namespace, list] of from) {
    const model = ws.models.get(namespace);
    if (!model) continue;
    for (const field of readableRefs(model)) {
      const target = field.to as string;
      for (const record of list) {
        const id = record[field.name];
        if (!Number.isSafeInteger(id) || records.get(target)?.has(id as number) || missing.get(target)?.has(id as number)) continue;
        if (!wanted.has(target)) wanted.set(target, new Set());
        wanted.get(target)!.add(id as number);
      }
    }
  }
  const specs: FetchSpec[] = [];
  for (const [target, ids] of wanted) {
    if (!missing.has(target)) missing.set(target, new Set());
    for (const id of ids) missing.get(target)!.add(id);
    for (const part of chunks([...ids].sort((a, b) => a - b), chunk)) {
      specs.push({ namespace: target, schema: 'model', filter: { id__in: part }, label: `${target} (referenced records)` });
    }
  }
  return specs;
}

/** Reads of the reverse relations of the records found last: `<via>__in` their ids. */
function reverseSpecs(ws: Workspace, from: Map<string, JsonObject[]>, chunk: number): FetchSpec[] {
  const specs: FetchSpec[] = [];
  for (const [namespace, list] of from) {
    const model = ws.models.get(namespace);
    if (!model) continue;
    const ids = list.map((record) => record.id as number).sort((a, b) => a - b);
    for (const relation of model.relations.values()) {
      for (const part of chunks(ids, chunk)) {
        specs.push({ namespace: relation.many, schema: 'model', filter: { [`${relation.via}__in`]: part }, label: `${relation.many} (${relation.name} of ${namespace})` });
      }
    }
  }
  return specs;
}

function readableRefs(model: ModelDef) {
  return [...model.fields.values()].filter((field) => field.type === 'ref' && !field.writeOnly && !field.hidden);
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Removes from `missing` every id that was found after all. */
function settleMissing(result: WalkResult): void {
  for (const [namespace, ids] of result.missing) {
    const found = result.records.get(namespace);
    for (const id of [...ids]) if (found?.has(id)) ids.delete(id);
    if (ids.size === 0) result.missing.delete(namespace);
  }
}
