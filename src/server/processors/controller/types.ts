/**
 * What a controller module sees (docs/protocol.md "Processors"): a class per controller, `on_<intent>(ctx, args)`
 * handlers, and a static per-intent `permissions` map. Workspace modules are plain ESM, so these
 * types document the shape rather than constrain it.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import type { AuthUser, ProcessorOutput, RequestContext, UploadedFile } from '../../context.ts';

export interface ControllerClass {
  new (): object;
  permissions?: Record<string, string[]>;
  /** Intents whose arguments include file parts, for the console's upload form: intent -> part names. */
  files?: Record<string, string[]>;
}

export interface HandlerResult {
  payload?: JsonValue;
  message?: string | null;
  extras?: Record<string, JsonValue> | null;
}

/** The data API: the model and nosql processors with the caller's permissions, inside the request's transaction. */
export interface DataApi {
  query(document: Record<string, JsonValue>): Promise<JsonValue>;
  retrieve(namespace: string, meta?: Record<string, JsonValue>, fields?: Record<string, JsonValue>): Promise<JsonValue>;
  retrieveOne(namespace: string, uniqueObject: Record<string, JsonValue>, fields?: Record<string, JsonValue>): Promise<JsonValue>;
  create(namespace: string, values: Record<string, JsonValue>, meta?: Record<string, JsonValue>): Promise<JsonValue>;
  update(namespace: string, uniqueObject: Record<string, JsonValue>, values: Record<string, JsonValue>): Promise<JsonValue>;
  delete(namespace: string, uniqueObject: Record<string, JsonValue>): Promise<JsonValue>;
}

export interface ControllerContext {
  user: AuthUser | null;
  data: DataApi;
  /** Runs `work` in a nested transaction: a failure inside leaves no write behind. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Emits a custom event on the stream bus after commit. */
  events: { emit(namespace: string, event: string, record: JsonValue): void };
  /** File parts of a multipart request by part name. */
  files: Map<string, UploadedFile>;
  /** Throws a `validation_error` on `field`. */
  reject(message: string, field?: string): never;
  /** The request itself, for built-in system controllers. */
  request: RequestContext;
}

export type Dispatch = (ctx: RequestContext, document: Record<string, JsonValue>) => Promise<ProcessorOutput>;
