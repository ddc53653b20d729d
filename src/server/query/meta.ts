/**
 * Reads a single query's `__meta__` (docs/protocol.md "The query document"): normalizes its keys, checks each one's shape and
 * refuses unknown keys, so processors receive a typed `QueryMeta` and never re-check shapes.
 */
import type { AuthenticationClass, JsonValue, SchemaKind } from '../../shared/protocol.ts';
import { ErrorList, fail, invalidRequest } from '../errors.ts';
import { intentKey } from '../../shared/intent-key.ts';
import { isPlainObject, mapKeys, snakeKey, snakePath } from './normalize.ts';

export type AggregateFn = 'count' | 'sum' | 'avg' | 'min' | 'max';

export interface GroupBySpec {
  by: string[];
  aggregates: Array<{ name: string; fn: AggregateFn; field: string }>;
}

export interface ParsedMeta {
  namespace: string;
  app: string;
  name: string;
  /** The canonical intent key (camelCase, e.g. `retrieveOne`; shared/intent-key.ts). */
  intent: string;
  schema: SchemaKind;
  authenticationClass?: AuthenticationClass;
  uniqueObject?: Record<string, JsonValue>;
  filter?: Record<string, JsonValue>;
  exclude?: Record<string, JsonValue>;
  search?: string;
  ordering?: string[];
  cache: boolean;
  limit?: number;
  offset?: number;
  draw?: number;
  groupBy?: GroupBySpec;
  return?: Record<string, JsonValue>;
  multipart: boolean;
  fileFieldMapping?: Record<string, string>;
  onlyData: boolean;
  debug: boolean;
  /** The user the request runs as (auth/see-as.ts reads it before the query runs). */
  seeAs?: string;
  /** Explain why this record is not in the answer (docs/protocol.md "Why not"). */
  whyNot?: { id: number };
}

const AGGREGATES = new Set<AggregateFn>(['count', 'sum', 'avg', 'min', 'max']);

/**
 * Bounds on the size of a query's parts. Far above any real query, they keep a hostile one from
 * compiling into SQL that SQLite refuses (at most 2,000 ORDER BY or result terms, expressions 1,000
 * deep): such a query is an `invalid_request`, not an internal error.
 */
export const MAX_CONDITIONS = 256;
export const MAX_ORDERING = 64;
const SCHEMAS = new Set<SchemaKind>(['model', 'controller', 'nosql']);

type Raw = Record<string, JsonValue>;
const at = (key: string): string[] => ['__meta__', key];

/** `nosql` keeps document paths as sent; models and controllers normalize field names. */
export function parseMeta(rawMeta: JsonValue | undefined): ParsedMeta {
  if (!isPlainObject(rawMeta)) invalidRequest('__meta__ must be an object', ['__meta__']);
  const meta = mapKeys(rawMeta as Raw, snakeKey);
  const schemaValue = meta.schema ?? 'model';
  if (typeof schemaValue !== 'string' || !SCHEMAS.has(schemaValue as SchemaKind)) {
    invalidRequest('__meta__.schema must be "model", "controller" or "nosql"', at('schema'));
  }
  const schema = schemaValue as SchemaKind;
  const fieldKey = schema === 'nosql' ? (key: string) => key : snakePath;

  const { namespace, app, name } = readNamespace(meta.namespace);
  const parsed: ParsedMeta = {
    namespace,
    app,
    name,
    intent: readIntent(meta.intent),
    schema,
    cache: false,
    multipart: false,
    onlyData: false,
    debug: false,
  };

  // Every bad or unknown key is reported, each with its path.
  const errors = new ErrorList();
  for (const [key, value] of Object.entries(meta)) errors.check(() => readKey(parsed, key, value, fieldKey));
  errors.throwIfAny();
  // whyNot explains a model's rules (processors/model/why-not.ts); a collection or a controller has none to explain.
  if (parsed.whyNot && schema !== 'model') invalidRequest('whyNot explains the records of a model retrieve', at('why_not'));
  return parsed;
}

function readKey(parsed: ParsedMeta, key: string, value: JsonValue, fieldKey: (k: string) => string): void {
  switch (key) {
    case 'namespace':
    case 'intent':
    case 'schema':
    case 'comment':
      break;
    case 'authentication_class':
      if (value !== 'jwt' && value !== 'session') invalidRequest('authenticationClass must be "jwt" or "session"', at(key));
      parsed.authenticationClass = value as AuthenticationClass;
      break;
    case 'unique_object':
      parsed.uniqueObject = objectOf(value, key, fieldKey);
      break;
    case 'filter':
      parsed.filter = objectOf(value, key, fieldKey);
      break;
    case 'exclude':
      parsed.exclude = objectOf(value, key, fieldKey);
      break;
    case 'return':
      parsed.return = objectOf(value, key, fieldKey);
      break;
    case 'search':
      if (!isPlainObject(value) || typeof value.value !== 'string' || Object.keys(value).some((k) => k !== 'value')) {
        invalidRequest('search must be {"value": "<term>"}', at(key));
      }
      parsed.search = (value as { value: string }).value;
      break;
    case 'ordering':
      if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string' || entry === '' || entry === '-')) {
        invalidRequest('ordering must be an array of field paths', at(key));
      }
      if ((value as string[]).length > MAX_ORDERING) invalidRequest(`ordering takes at most ${MAX_ORDERING} paths`, at(key));
      parsed.ordering = (value as string[]).map(fieldKey);
      break;
    case 'cache':
      if (!isPlainObject(value) || typeof value.enabled !== 'boolean' || Object.keys(value).some((k) => k !== 'enabled')) {
        invalidRequest('cache must be {"enabled": true|false}', at(key));
      }
      parsed.cache = (value as { enabled: boolean }).enabled;
      break;
    case 'limit':
    case 'offset':
    case 'draw':
      parsed[key] = pagingValue(key, value);
      break;
    case 'group_by':
      parsed.groupBy = readGroupBy(value, fieldKey);
      break;
    case 'side_effects':
      readSideEffects(value, parsed);
      break;
    case 'render':
      if (value !== 'only:data') invalidRequest('render must be "only:data"', at(key));
      parsed.onlyData = true;
      break;
    case 'debug':
      if (typeof value !== 'boolean') invalidRequest('debug must be a boolean', at(key));
      parsed.debug = value as boolean;
      break;
    case 'see_as':
      // Checked and applied to the whole request before any query runs (auth/see-as.ts).
      if (typeof value !== 'string' || value === '') invalidRequest('seeAs must be the username of the user to run the request as', at(key));
      parsed.seeAs = value as string;
      break;
    case 'why_not':
      if (!isPlainObject(value) || !Number.isSafeInteger(value.id) || Object.keys(value).some((k) => k !== 'id')) {
        invalidRequest('whyNot must be {"id": <the record\'s id>}', at(key));
      }
      parsed.whyNot = { id: (value as { id: number }).id };
      break;
    default:
      invalidRequest(`Unknown __meta__ key "${key}"`, at(key));
  }
}

/** limit and offset are integers >= 0, draw any integer (docs/protocol.md "`__meta__` keys"); a query plan checks them so too. */
export function pagingValue(key: 'limit' | 'offset' | 'draw', value: JsonValue): number {
  if (key === 'draw') {
    if (!Number.isSafeInteger(value)) invalidRequest('draw must be an integer', at(key));
  } else if (!Number.isSafeInteger(value) || (value as number) < 0) invalidRequest(`${key} must be an integer >= 0`, at(key));
  return value as number;
}

/**
 * The canonical key of `__meta__.intent`. A name in neither camelCase nor snake_case is
 * `unknown_intent`: to a client it is an intent the server does not have under that name, the same
 * answer as for any other intent it does not have (and, like it, a 400).
 */
function readIntent(value: JsonValue | undefined): string {
  if (typeof value !== 'string' || value === '') invalidRequest('__meta__.intent must be a non-empty string', at('intent'));
  const key = intentKey(value as string);
  if (key === null) {
    const shown = JSON.stringify((value as string).slice(0, 60));
    fail('unknown_intent', `${shown} is not an intent name: intents are camelCase (uploadPackage) or snake_case (upload_package)`, { path: at('intent') });
  }
  return key as string;
}

function readNamespace(value: JsonValue | undefined): { namespace: string; app: string; name: string } {
  if (typeof value !== 'string' || value === '') invalidRequest('__meta__.namespace must be a string "<app>.<Name>"', at('namespace'));
  const namespace = value as string;
  const dot = namespace.indexOf('.');
  if (dot <= 0 || dot === namespace.length - 1 || namespace.indexOf('.', dot + 1) !== -1) {
    fail('unknown_namespace', `Namespace "${namespace}" is not of the form "<app>.<Name>"`, { path: at('namespace') });
  }
  return { namespace, app: namespace.slice(0, dot), name: namespace.slice(dot + 1) };
}

function objectOf(value: JsonValue, key: string, fieldKey: (k: string) => string): Raw {
  if (!isPlainObject(value)) invalidRequest(`${key} must be an object`, at(key));
  if (Object.keys(value as Raw).length > MAX_CONDITIONS) invalidRequest(`${key} takes at most ${MAX_CONDITIONS} entries`, at(key));
  return mapKeys(value as Raw, fieldKey);
}

function readGroupBy(value: JsonValue, fieldKey: (k: string) => string): GroupBySpec {
  const path = at('group_by');
  if (Array.isArray(value)) {
    if (value.length === 0 || value.some((entry) => typeof entry !== 'string')) invalidRequest('groupBy must list field paths', path);
    if (value.length > MAX_ORDERING) invalidRequest(`groupBy takes at most ${MAX_ORDERING} paths`, path);
    return { by: (value as string[]).map(fieldKey), aggregates: [] };
  }
  if (!isPlainObject(value) || !Array.isArray(value.by) || value.by.length === 0 || value.by.some((e) => typeof e !== 'string')) {
    invalidRequest('groupBy must be an array of field paths or {"by": [...], "aggregates": {...}}', path);
  }
  const spec = value as { by: string[]; aggregates?: JsonValue };
  if (spec.by.length > MAX_ORDERING) invalidRequest(`groupBy takes at most ${MAX_ORDERING} paths`, [...path, 'by']);
  for (const key of Object.keys(spec)) if (key !== 'by' && key !== 'aggregates') invalidRequest(`Unknown groupBy key "${key}"`, [...path, key]);
  const aggregates: GroupBySpec['aggregates'] = [];
  if (spec.aggregates !== undefined) {
    if (!isPlainObject(spec.aggregates)) invalidRequest('groupBy.aggregates must be an object', [...path, 'aggregates']);
    if (Object.keys(spec.aggregates as Raw).length > MAX_ORDERING) invalidRequest(`groupBy.aggregates takes at most ${MAX_ORDERING} entries`, [...path, 'aggregates']);
    for (const [name, definition] of Object.entries(spec.aggregates as Raw)) {
      // A row key beginning with `__` (`__proto__`) would not survive as a plain key of the answer.
      if (name.startsWith('__')) invalidRequest(`Aggregate name "${name}" is reserved: names beginning with "__" belong to the server`, [...path, 'aggregates', name]);
      const entries = isPlainObject(definition) ? Object.entries(definition) : [];
      const [fn, field] = entries[0] ?? [];
      if (entries.length !== 1 || !AGGREGATES.has(fn as AggregateFn) || typeof field !== 'string') {
        invalidRequest(`Aggregate "${name}" must be {"count"|"sum"|"avg"|"min"|"max": "<field>" or "*"}`, [...path, 'aggregates', name]);
      }
      aggregates.push({ name, fn: fn as AggregateFn, field: field === '*' ? '*' : fieldKey(field as string) });
    }
  }
  return { by: spec.by.map(fieldKey), aggregates };
}

function readSideEffects(value: JsonValue, parsed: ParsedMeta): void {
  const path = at('side_effects');
  if (!isPlainObject(value)) invalidRequest('sideEffects must be an object', path);
  for (const [rawKey, entry] of Object.entries(value as Raw)) {
    const key = snakeKey(rawKey);
    if (key === 'multipart_form_upload') {
      if (typeof entry !== 'boolean') invalidRequest('sideEffects.multipartFormUpload must be a boolean', [...path, key]);
      parsed.multipart = entry as boolean;
    } else if (key === 'file_field_mapping') {
      if (!isPlainObject(entry) || Object.values(entry).some((part) => typeof part !== 'string')) {
        invalidRequest('sideEffects.fileFieldMapping must map field names to part names', [...path, key]);
      }
      parsed.fileFieldMapping = mapKeys(entry as Raw, snakeKey) as Record<string, string>;
    } else {
      invalidRequest(`Unknown sideEffects key "${rawKey}"`, [...path, rawKey]);
    }
  }
}
