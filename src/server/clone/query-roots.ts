/**
 * The records a clone starts from: every record the query's read matches. A single query or each
 * subquery of a multi-query must be a model or collection read (`retrieve`, `retrieveOne`, `count`,
 * a grouped retrieve); its filter, exclude and search are kept, and paging is dropped, so the copy
 * holds all the records the query pages through, counts or groups, and the same query answers the
 * same `filtered` on both servers. The selection is dropped too: the clone copies whole records and
 * follows relations by `--depth` instead.
 */
import { FILTER_LOOKUPS, type JsonValue } from '../../shared/protocol.ts';
import { JqlFailure } from '../errors.ts';
import { parseMeta, type ParsedMeta } from '../query/meta.ts';
import { isPlainObject } from '../query/normalize.ts';

export interface RootQuery {
  /** The subquery's name in a multi-query; null for a single query. */
  name: string | null;
  namespace: string;
  schema: 'model' | 'nosql';
  filter?: Record<string, JsonValue>;
  exclude?: Record<string, JsonValue>;
  search?: string;
  /** Relation hops the query's selection, filter, exclude and ordering reach (0: the model only). */
  reach: number;
}

export class QueryFileError extends Error {
  override readonly name = 'QueryFileError';
}

const READS = new Set(['retrieve', 'retrieveOne', 'count']);

export function rootQueries(document: unknown): RootQuery[] {
  if (!isPlainObject(document)) throw new QueryFileError('The query must be a JSON object: a single query with "__meta__", or a multi-query');
  if (Object.hasOwn(document, '__meta__')) return [rootOf(null, document)];
  const names = Object.keys(document).filter((key) => key !== '__root_meta__');
  if (names.length === 0) throw new QueryFileError('The query has no "__meta__" and no subqueries');
  return names.map((name) => {
    const sub = document[name];
    if (!isPlainObject(sub) || !Object.hasOwn(sub, '__meta__')) throw new QueryFileError(`Subquery "${name}" is not a query with "__meta__"`);
    return rootOf(name, sub);
  });
}

function rootOf(name: string | null, query: Record<string, JsonValue>): RootQuery {
  const where = name === null ? 'The query' : `Subquery "${name}"`;
  let meta: ParsedMeta;
  try {
    meta = parseMeta(query.__meta__);
  } catch (error) {
    if (error instanceof JqlFailure) throw new QueryFileError(`${where}: ${error.message}`);
    throw error;
  }
  if (meta.schema === 'controller') throw new QueryFileError(`${where} calls a controller (${meta.namespace}); a clone starts from a model or collection read`);
  if (!READS.has(meta.intent)) throw new QueryFileError(`${where} is a ${meta.intent}; a clone starts from a read (retrieve, retrieveOne or count), it never writes`);
  const filter = { ...(meta.filter ?? {}), ...(meta.intent === 'retrieveOne' ? (meta.uniqueObject ?? {}) : {}) };
  // `exclude: {"field": null}` only drops a field from the answer: the copy keeps whole records.
  const exclude = Object.fromEntries(Object.entries(meta.exclude ?? {}).filter(([, value]) => value !== null));
  const root: RootQuery = { name, namespace: meta.namespace, schema: meta.schema, reach: meta.schema === 'nosql' ? 0 : reachOf(query, meta) };
  if (Object.keys(filter).length > 0) root.filter = filter;
  if (Object.keys(exclude).length > 0) root.exclude = exclude;
  if (meta.search !== undefined) root.search = meta.search;
  return root;
}

/** How many relation hops the query looks through: nested selections and multi-part paths. */
function reachOf(query: Record<string, JsonValue>, meta: ParsedMeta): number {
  const selection = (value: JsonValue): number =>
    isPlainObject(value) ? Math.max(0, ...Object.entries(value).filter(([key]) => key !== '__meta__').map(([, v]) => (isPlainObject(v) ? 1 + selection(v) : 0))) : 0;
  const paths = [
    ...Object.keys(meta.filter ?? {}),
    ...Object.keys(meta.exclude ?? {}),
    ...Object.keys(meta.uniqueObject ?? {}),
    ...(meta.ordering ?? []),
    ...(meta.groupBy?.by ?? []),
  ];
  // `a.b__icontains` and `a__b__c` both name fields; a last part that is a lookup is no hop.
  const hops = (path: string) => {
    const parts = path.replace(/^-/, '').split(/\.|__/);
    return parts.length - (parts.length > 1 && (FILTER_LOOKUPS as readonly string[]).includes(parts[parts.length - 1]!) ? 2 : 1);
  };
  return Math.max(selection(query), ...paths.map(hops));
}
