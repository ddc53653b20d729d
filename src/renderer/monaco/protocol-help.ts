/**
 * What the console says about the protocol's words (a `__meta__` key, a lookup, an intent, an error
 * code): one short sentence each and the section of docs/protocol.md that explains it. Completion
 * (jql-schema.ts, model-schema.ts), the editor's hovers and the errors list all read it from here.
 */
import type { ErrorCode } from '../../shared/error-codes.ts';
import type { FilterLookup } from '../../shared/protocol.ts';

export interface Help {
  text: string;
  /** Anchor of a heading of docs/protocol.md. */
  anchor: string;
}

/** `__meta__` keys, camelCase as the console writes them. */
export const META_HELP: Readonly<Record<string, Help>> = {
  namespace: { text: 'What the query works on: "<app>.<Name>", a model, a controller or a collection.', anchor: 'namespace-intent-and-schema' },
  intent: { text: 'What to do: retrieve, retrieveOne, count, create, update, delete, or a controller intent.', anchor: 'namespace-intent-and-schema' },
  schema: { text: 'The processor that answers: model (the default), controller or nosql.', anchor: 'namespace-intent-and-schema' },
  authenticationClass: { text: 'Which credential identifies the caller: jwt (the bearer token) or session (the cookie).', anchor: 'authentication' },
  uniqueObject: { text: 'Selects exactly one record (retrieveOne, update, delete); none is not_found, several is invalid_request.', anchor: 'model-intents' },
  filter: { text: 'Records that match every entry: field, field__lookup, ref.field.', anchor: 'filter' },
  exclude: { text: 'Removes the records that match; an entry whose value is null removes that field from the answer.', anchor: 'exclude' },
  search: { text: '{"value": "text"}: records whose search fields contain the text, ignoring case.', anchor: 'search' },
  ordering: { text: "Field paths in order, '-' for descending; ties are broken by id.", anchor: 'ordering' },
  limit: { text: 'How many records at most (default 100); above the server maximum it is clamped, with a notice.', anchor: 'limit-offset-and-draw' },
  offset: { text: 'How many records to skip.', anchor: 'limit-offset-and-draw' },
  draw: { text: 'Any integer, echoed back in __extras__.draw.', anchor: 'limit-offset-and-draw' },
  cache: { text: '{"enabled": true}: answer a repeated retrieve from the server cache (__extras__.cached).', anchor: 'cache' },
  groupBy: { text: 'Field paths, or {"by": [...], "aggregates": {...}}: one row per group with count and aggregates.', anchor: 'groupby' },
  return: { text: 'The fields a create or update answers with.', anchor: 'return' },
  sideEffects: { text: 'multipartFormUpload and fileFieldMapping (file field to part name) of a PUT /jql upload.', anchor: 'sideeffects' },
  render: { text: '"only:data": on success the body is the payload alone.', anchor: 'render' },
  debug: { text: 'Details of an internal_error in development mode.', anchor: 'debug' },
  comment: { text: 'Notes for people; the server ignores it.', anchor: 'comment' },
};

/** `__root_meta__` keys of a multi-query. */
export const ROOT_META_HELP: Readonly<Record<string, Help>> = {
  atomic: { text: 'All subqueries in one transaction: one failure undoes every write (rolled_back).', anchor: 'multi-query' },
  authenticationClass: { text: 'The authentication class of every subquery.', anchor: 'multi-query' },
  comment: { text: 'Notes for people; the server ignores it.', anchor: 'multi-query' },
};

/** The snake_case spellings the server accepts for the camelCase keys. */
export const META_ALIASES: Readonly<Record<string, string>> = {
  unique_object: 'uniqueObject',
  group_by: 'groupBy',
  side_effects: 'sideEffects',
  authentication_class: 'authenticationClass',
};

export const LOOKUP_HELP: Readonly<Record<FilterLookup, string>> = {
  exact: 'equal (null: IS NULL)',
  iexact: 'equal, ignoring case',
  contains: 'contains (case-sensitive)',
  icontains: 'contains, ignoring case',
  startswith: 'starts with (case-sensitive)',
  istartswith: 'starts with, ignoring case',
  endswith: 'ends with (case-sensitive)',
  iendswith: 'ends with, ignoring case',
  gt: 'greater than',
  gte: 'greater than or equal',
  lt: 'less than',
  lte: 'less than or equal',
  in: 'one of an array of values',
  range: '[low, high], inclusive',
  isnull: 'true: IS NULL, false: IS NOT NULL',
  ne: 'not equal (keeps NULLs)',
};

export const LOOKUPS_ANCHOR = 'lookups';

export const MODEL_INTENT_HELP: Readonly<Record<string, string>> = {
  retrieve: 'Records matching filter/exclude/search, ordered and paged',
  retrieveOne: 'The one record matching uniqueObject',
  create: 'Create a record from the data keys',
  update: 'Update the record matching uniqueObject with the data keys',
  delete: 'Delete the record matching uniqueObject',
  count: 'How many records match',
};

/** Where an intent is explained: model intents, the built-in controllers, or controllers in general. */
export function intentAnchor(intent: string, namespace: string | null): string {
  if (Object.hasOwn(MODEL_INTENT_HELP, intent)) return 'model-intents';
  if (namespace === 'system.User') return 'authentication';
  if (namespace === 'system.Schema') return 'describe';
  return 'controllers';
}

export const ERROR_HELP: Readonly<Record<ErrorCode, string>> = {
  invalid_json: 'The body is not JSON, or is nested deeper than 64 levels.',
  invalid_request: 'A missing, unknown or ill-typed __meta__ key, a value of the wrong type, a uniqueObject matching several records, or a query over a limit.',
  unknown_namespace: 'No model, controller or collection has this name (check schema too).',
  unknown_intent: 'The target does not answer this intent.',
  unknown_field: 'A field path that does not exist or may not be read.',
  invalid_lookup: "A lookup the field's type does not take.",
  validation_error: 'Values that do not fit the model: one error per field.',
  unauthenticated: 'No credential where one is needed, or one that does not work (expired, revoked).',
  forbidden: "The caller's roles do not allow it.",
  not_found: 'uniqueObject matched nothing the caller may see; or an unknown path or file.',
  conflict: 'A unique field already holds the value, or the record is still referenced.',
  payload_too_large: 'A body, a file or an answer over its limit (answers count UTF-8 bytes of JSON).',
  unsupported_media_type: 'The wrong Content-Type: POST /jql takes JSON, PUT /jql multipart.',
  misdirected_request: 'A Host header this loopback server does not answer (what a DNS-rebinding page sends).',
  rate_limited: 'Too many requests in a minute, or too many failed logins; wait for Retry-After.',
  internal_error: 'A failure on the server; debug: true shows details in development mode.',
  server_busy: 'The server holds as many unread answers as it may (limits.heldAnswerBytes); wait for Retry-After.',
  database_busy: "Another program holds the database's write lock; nothing was written. Wait for Retry-After and send it again.",
  storage_full: "The server's disk is full; nothing was written. Send it again once space is freed.",
  storage_read_only: "The server's data folder cannot be written; nothing was written. Reads still work.",
  rolled_back: "An atomic multi-query's subquery undone because another failed.",
};

/** An error code's entry in docs/protocol.md is the heading named after it. */
export const errorAnchor = (code: ErrorCode): string => code;
