/**
 * Wire types of the JQL protocol (docs/protocol.md): query documents, both envelope shapes, errors and
 * the introspection result. Shared by the server, the Electron shell and the console.
 */
import type { ErrorCode } from './error-codes.ts';

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type SchemaKind = 'model' | 'controller' | 'nosql';
export type AuthenticationClass = 'jwt' | 'session';

/** `__meta__` as a client writes it (camelCase accepted; the server normalizes to snake_case). */
export interface QueryMeta {
  namespace: string;
  intent: string;
  schema?: SchemaKind;
  authenticationClass?: AuthenticationClass;
  uniqueObject?: JsonObject;
  filter?: JsonObject;
  exclude?: JsonObject;
  search?: { value: string };
  ordering?: string[];
  cache?: { enabled: boolean };
  limit?: number;
  offset?: number;
  draw?: number;
  groupBy?: string[] | { by: string[]; aggregates?: Record<string, Record<AggregateFn, string>> };
  return?: JsonObject;
  sideEffects?: { multipartFormUpload?: boolean; fileFieldMapping?: Record<string, string> };
  render?: 'only:data';
  debug?: boolean;
  comment?: JsonValue;
}

export type AggregateFn = 'count' | 'sum' | 'avg' | 'min' | 'max';

export interface SingleQuery {
  __meta__: QueryMeta;
  [dataKey: string]: JsonValue | QueryMeta;
}

export interface JqlError {
  code: ErrorCode;
  message: string;
  field?: string;
  path?: Array<string | number>;
  detail?: { exception: string; message: string; stack?: string };
}

export interface Extras {
  filtered?: number;
  display?: number;
  queries?: number;
  limit?: number;
  offset?: number;
  draw?: number;
  cached?: boolean;
  notices?: string[];
  [key: string]: JsonValue | undefined;
}

export interface SqlTrace {
  sql: string;
  params: JsonValue[];
  time_ms: number;
}

export interface SystemInfo {
  queries: number;
  time_ms: number;
  sql?: SqlTrace[];
}

/** The standard envelope (docs/protocol.md "The envelope"). */
export interface Envelope {
  __payload__: JsonValue;
  __message__: string | null;
  __extras__: Extras | null;
  __errors__: JqlError[] | null;
  __system__: SystemInfo | null;
  __intent__: string | null;
}

/** The flat envelope (docs/protocol.md "The flat shape"), selected with `?envelope=flat`. */
export interface FlatEnvelope {
  status: 'OK' | 'ERROR';
  data: JsonValue;
  errors: JqlError[] | null;
  il8n: string;
  extras: Extras | null;
  system_info: SystemInfo | null;
  intent: string | null;
  message: string | null;
}

/** One key of a multi-query payload (docs/protocol.md "Multi-query"). */
export interface SubqueryResult {
  data: JsonValue;
  extras: Extras | null;
  message: string | null;
  errors: JqlError[] | null;
  notices: string[] | null;
  intent: string | null;
}

/** A file field's value (docs/protocol.md "File URLs"). */
export interface FileValue {
  name: string;
  size: number;
  content_type: string;
  sha256: string;
  url: string;
}

export type FieldType =
  | 'string'
  | 'text'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'json'
  | 'ref'
  | 'file';

export const FILTER_LOOKUPS = [
  'exact',
  'iexact',
  'contains',
  'icontains',
  'startswith',
  'istartswith',
  'endswith',
  'iendswith',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'range',
  'isnull',
  'ne',
] as const;
export type FilterLookup = (typeof FILTER_LOOKUPS)[number];

/** `system.Schema.describe` payload (docs/protocol.md "describe"). */
export interface DescribeResult {
  version: string;
  workspace: string;
  mode: 'development' | 'production';
  limits: WorkspaceLimits;
  apps: Record<string, DescribeApp>;
  /** Protocol extensions this server answers (docs/protocol.md "See as", "Why not"); absent on older servers. */
  extensions?: ProtocolExtension[];
}

export type ProtocolExtension = 'seeAs' | 'whyNot';

export interface WorkspaceLimits {
  defaultLimit: number;
  maxLimit: number;
  maxFileBytes: number;
  maxBodyBytes: number;
  /** Bounds of one request (docs/protocol.md "Errors", "Multipart uploads"); optional because older servers do not describe them. */
  maxQueriesPerRequest?: number;
  maxValueBytes?: number;
  maxAnswerBytes?: number;
  maxNested?: number;
  maxUploadBytes?: number;
  /** Events a stream subscription replays at most (docs/protocol.md "Streams"). */
  maxStreamEvents?: number;
  /** JQL requests per client per minute; 0 when there is no such limit. */
  requestsPerMinute?: number;
  /** Bytes of answers written and not yet read by their clients, all requests together (503 server_busy past it). */
  heldAnswerBytes?: number;
}

export interface DescribeApp {
  models: Record<string, DescribeModel>;
  controllers: Record<string, DescribeController>;
  collections: Record<string, DescribeCollection>;
  /** Mutation hooks the app runs (`before_create`, ...): behaviour a copy of the schema does not carry. */
  hooks?: string[];
}

export interface DescribeField {
  type: FieldType;
  required: boolean;
  null: boolean;
  choices?: JsonValue[];
  to?: string;
  default?: JsonValue;
  unique?: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
  writeOnly?: boolean;
  auto?: 'create' | 'update';
  protected?: boolean;
  /** Written as `required: true`: an empty string is refused too (docs/workspace.md). */
  notEmpty?: boolean;
  lookups: FilterLookup[];
}

export interface DescribeModel {
  fields: Record<string, DescribeField>;
  relations: Record<string, { many: string; via: string }>;
  search: string[];
  ordering: string[];
  intents: string[];
  permissions: Record<string, unknown>;
  /** Extra indexes (lists of field names), when the workspace declares any. */
  indexes?: string[][];
  /**
   * `hidden` fields: server-managed, never read nor written by clients, so they are not in `fields`
   * (where the console would offer them); listed so that a copy of the schema keeps their columns.
   */
  hiddenFields?: Record<string, DescribeField>;
}

export interface DescribeController {
  intents: string[];
  permissions: Record<string, string[]>;
  files?: Record<string, string[]>;
  /** Intents that change nothing (docs/protocol.md "Processors"); an intent not listed is treated as one that writes. */
  readOnly?: string[];
}

export interface DescribeCollection {
  intents: string[];
  permissions: Record<string, unknown>;
}
