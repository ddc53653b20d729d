/**
 * The typed channel map between Electron main and the preload: one entry per
 * channel, its arguments and its result. Main registers a handler per invoke channel, the preload
 * exposes one named method per channel (`JqlBridge`), and the renderer sees only `window.jql`.
 */
import type { CloneJobStatus, CloneRequest } from './clone.ts';
import type { HistoryQuery, HistoryRun, NewHistoryRun } from './history.ts';
import type { AuthenticationClass } from './protocol.ts';

/**
 * The embedded server as main sees it; sent on start and again when File > Open Workspace swaps it.
 * It never carries the local admin's credential (docs/protocol.md "The local admin"): `localAdmin` says
 * that main signs the page's requests to this server in as the local admin.
 */
export type EmbeddedServerStatus =
  | { state: 'starting'; workspace: string | null }
  | { state: 'running'; url: string; workspace: string | null; localAdmin: boolean }
  | { state: 'failed'; workspace: string | null; message: string };

/** The id of the embedded connection: main registers it itself, with the local admin's credential. */
export const EMBEDDED_CONNECTION_ID = 'embedded';

/** Answers larger than this are cut off by main unless the connection says otherwise (issue 21.5). */
export const DEFAULT_ANSWER_LIMIT = 64 * 1024 * 1024;
export const MIN_ANSWER_LIMIT = 1024 * 1024;
export const MAX_ANSWER_LIMIT = 1024 * 1024 * 1024;

/**
 * A connection as the page tells main about it (`connections:register`). Main keeps the registry:
 * it adds the connection's credential itself, only to this origin, and forgets the credential
 * when the origin or the authentication class changes.
 */
export interface ConnectionSpec {
  id: string;
  /** Origin plus base path; requests for this connection may go to its origin only. */
  baseUrl: string;
  authClass: AuthenticationClass;
  /** Bytes of an answer main reads before it stops (DEFAULT_ANSWER_LIMIT when absent). */
  answerLimit?: number;
}

export interface AppInfo {
  appVersion: string;
  platform: string;
  embedded: EmbeddedServerStatus;
  recentWorkspaces: string[];
}

export const PROXY_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;
export type ProxyMethod = (typeof PROXY_METHODS)[number];

/** An HTTP request that main performs for the renderer (remote servers, so cookies and CORS behave like a real client). */
export interface ProxyRequest {
  /** A connection main knows (`connections:register`); the URL must be on its origin. */
  connectionId: string;
  url: string;
  method: ProxyMethod;
  /** Authorization and Cookie are main's to add: the page's are dropped unless `credentials` is 'omit'. */
  headers: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  /**
   * `connection`: main adds the connection's bearer token and cookie jar. `omit`: main adds nothing
   * and uses no jar (health checks, "anyone", a diff identity whose token the page got itself).
   */
  credentials: 'connection' | 'omit';
}

export interface ProxyResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  /** Raw bytes: the renderer decides where (and on which thread) to decode and parse them. */
  body: Uint8Array;
  timeMs: number;
}

export interface SaveFileRequest {
  suggestedName: string;
  data: string | Uint8Array;
}

export type SaveFileResult = { saved: true; path: string } | { saved: false };

/** One part of a multipart upload that main sends for the renderer (docs/protocol.md "Multipart uploads"). */
export type UploadPartData =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; fileName: string; contentType: string; data: Uint8Array };

/**
 * A multipart `PUT {base}/jql` that main performs: every upload in the desktop app goes through main,
 * like every JSON request, so the connection's cookie jar applies and no server needs CORS for the
 * app:// page. Progress comes back as `http:upload-progress` events under `uploadId`.
 */
export interface UploadIpcRequest {
  /** Chosen by the renderer; names the upload in progress events and in `http:upload-cancel`. */
  uploadId: string;
  connectionId: string;
  url: string;
  headers: Record<string, string>;
  parts: UploadPartData[];
  timeoutMs?: number;
}

export interface UploadProgressEvent {
  uploadId: string;
  loaded: number;
  total: number;
}

/** Main's answer when an upload was cancelled (the promise rejects with this message). */
export const UPLOAD_CANCELLED_MESSAGE = 'The upload was cancelled.';

/**
 * A WebSocket that main opens for the renderer (`/jql-streams`): the page's CSP allows no socket of
 * its own, and main adds the connection's credential (bearer token or cookie jar) itself.
 */
export interface WsOpenRequest {
  connectionId: string;
  /** ws: or wss:, on the connection's origin. */
  url: string;
  /** As for a request: `connection` (the default) signs the socket in, `omit` opens it anonymously. */
  credentials?: 'connection' | 'omit';
}

export interface WsMessageEvent {
  socketId: string;
  data: string;
}

export interface WsClosedEvent {
  socketId: string;
  code: number;
  reason: string;
}

/** One change to the console's stored documents (editor tabs, saved collections): a value, or null to delete. */
export interface DocumentChange {
  key: string;
  value: string | null;
}

/** Document keys are short names the renderer chooses, e.g. `tab:tab-1a2b` or `saved-queries`. */
export const DOCUMENT_KEY_PATTERN = /^[A-Za-z0-9:._-]{1,200}$/;

export interface BridgeInvokeMap {
  'app:get-info': { args: []; result: AppInfo };
  'http:request': { args: [request: ProxyRequest]; result: ProxyResponse };
  'connections:register': { args: [spec: ConnectionSpec]; result: void };
  'connections:forget': { args: [id: string]; result: void };
  'secrets:set': { args: [key: string, value: string]; result: void };
  'secrets:has': { args: [key: string]; result: boolean };
  'secrets:delete': { args: [key: string]; result: void };
  'file:save': { args: [request: SaveFileRequest]; result: SaveFileResult };
  'shell:open-external': { args: [url: string]; result: boolean };
  'workspace:open': { args: []; result: void };
  'workspace:open-recent': { args: [path: string]; result: void };
  'http:upload': { args: [request: UploadIpcRequest]; result: ProxyResponse };
  'http:upload-cancel': { args: [uploadId: string]; result: void };
  'ws:open': { args: [request: WsOpenRequest]; result: { socketId: string } };
  'ws:send': { args: [socketId: string, data: string]; result: void };
  'ws:close': { args: [socketId: string, code: number, reason: string]; result: void };
  'ws:ack': { args: [socketId: string, chars: number]; result: void };
  'history:add': { args: [run: NewHistoryRun]; result: HistoryRun };
  'history:list': { args: [query: HistoryQuery]; result: HistoryRun[] };
  'history:get': { args: [id: string]; result: HistoryRun | null };
  'history:delete': { args: [id: string]; result: void };
  'history:clear': { args: []; result: void };
  'history:count': { args: []; result: number };
  'documents:get': { args: [key: string]; result: string | null };
  'documents:write': { args: [changes: DocumentChange[]]; result: void };
  'clone:start': { args: [request: CloneRequest]; result: { id: string } };
  'clone:status': { args: [id: string]; result: CloneJobStatus | null };
  'clone:cancel': { args: [id: string]; result: CloneJobStatus | null };
}

export interface BridgeEventMap {
  'embedded:changed': EmbeddedServerStatus;
  'workspace:recent-changed': string[];
  'http:upload-progress': UploadProgressEvent;
  'ws:message': WsMessageEvent;
  'ws:closed': WsClosedEvent;
}

export type InvokeChannel = keyof BridgeInvokeMap;
export type EventChannel = keyof BridgeEventMap;
export type InvokeArgs<C extends InvokeChannel> = BridgeInvokeMap[C]['args'];
export type InvokeResult<C extends InvokeChannel> = BridgeInvokeMap[C]['result'];

/** Every invoke channel, as data: main registers exactly these and the preload rejects anything else. */
export const INVOKE_CHANNELS = [
  'app:get-info',
  'http:request',
  'connections:register',
  'connections:forget',
  'secrets:set',
  'secrets:has',
  'secrets:delete',
  'file:save',
  'shell:open-external',
  'workspace:open',
  'workspace:open-recent',
  'http:upload',
  'http:upload-cancel',
  'ws:open',
  'ws:send',
  'ws:close',
  'ws:ack',
  'history:add',
  'history:list',
  'history:get',
  'history:delete',
  'history:clear',
  'history:count',
  'documents:get',
  'documents:write',
  'clone:start',
  'clone:status',
  'clone:cancel',
] as const satisfies readonly InvokeChannel[];

export const EVENT_CHANNELS = ['embedded:changed', 'workspace:recent-changed', 'http:upload-progress', 'ws:message', 'ws:closed'] as const satisfies readonly EventChannel[];

/** Secret keys are short identifiers the renderer chooses: `token:<connection id>` holds a connection's bearer token. */
export const SECRET_KEY_PATTERN = /^[A-Za-z0-9:._-]{1,128}$/;

/** What the preload exposes as `window.jql`: one named method per channel, nothing else. */
export interface JqlBridge {
  getAppInfo(): Promise<AppInfo>;
  request(request: ProxyRequest): Promise<ProxyResponse>;
  /** Tells main about a connection (again after a change); requests for it need this first. */
  registerConnection(spec: ConnectionSpec): Promise<void>;
  /** Main forgets the connection, its token and its cookies. */
  forgetConnection(id: string): Promise<void>;
  /** Secrets are write-only from the page: it may store, test and delete one, never read it back. */
  setSecret(key: string, value: string): Promise<void>;
  hasSecret(key: string): Promise<boolean>;
  deleteSecret(key: string): Promise<void>;
  saveFile(request: SaveFileRequest): Promise<SaveFileResult>;
  openExternal(url: string): Promise<boolean>;
  openWorkspace(): Promise<void>;
  openRecentWorkspace(path: string): Promise<void>;
  /** Returns a function that removes the listener. */
  onEmbeddedChanged(listener: (status: EmbeddedServerStatus) => void): () => void;
  onRecentWorkspacesChanged(listener: (paths: string[]) => void): () => void;
  upload(request: UploadIpcRequest): Promise<ProxyResponse>;
  cancelUpload(uploadId: string): Promise<void>;
  onUploadProgress(listener: (progress: UploadProgressEvent) => void): () => void;
  wsOpen(request: WsOpenRequest): Promise<{ socketId: string }>;
  wsSend(socketId: string, data: string): Promise<void>;
  wsClose(socketId: string, code: number, reason: string): Promise<void>;
  /** The page has taken `chars` characters of a socket's messages: main reads on while the backlog is small. */
  wsAck(socketId: string, chars: number): Promise<void>;
  onWsMessage(listener: (message: WsMessageEvent) => void): () => void;
  onWsClosed(listener: (closed: WsClosedEvent) => void): () => void;
  historyAdd(run: NewHistoryRun): Promise<HistoryRun>;
  historyList(query: HistoryQuery): Promise<HistoryRun[]>;
  historyGet(id: string): Promise<HistoryRun | null>;
  historyDelete(id: string): Promise<void>;
  historyClear(): Promise<void>;
  historyCount(): Promise<number>;
  /** The console's own documents (tabs, saved collections) in SQLite: one key's value, or null. */
  documentsGet(key: string): Promise<string | null>;
  /** Writes several keys in one transaction: all of them or none. */
  documentsWrite(changes: DocumentChange[]): Promise<void>;
  /** "Reproduce locally": main copies a remote tab's query and serves the copy (docs in shared/clone.ts). */
  cloneStart(request: CloneRequest): Promise<{ id: string }>;
  cloneStatus(id: string): Promise<CloneJobStatus | null>;
  cloneCancel(id: string): Promise<CloneJobStatus | null>;
}
