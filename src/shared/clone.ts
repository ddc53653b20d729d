/**
 * Reproducing a live case offline (`jql-console clone`, the console's "Reproduce locally"): what is
 * asked, the progress the console shows while it runs, and the manifest the copy keeps in its data
 * directory (`clone-manifest.json`). Shared by the server, Electron main and the renderer.
 */
import type { JsonValue } from './protocol.ts';

export const CLONE_MANIFEST_FILE = 'clone-manifest.json';
export const CLONE_WORKSPACE_FILE = 'workspace.json';
export const DEFAULT_CLONE_DEPTH = 2;
export const MAX_CLONE_DEPTH = 10;
export const DEFAULT_MAX_RECORDS = 10_000;

/** What the console asks its server (or main) to reproduce. The token is the remote connection's. */
export interface CloneRequest {
  /** The remote connection's base URL. */
  url: string;
  /** The remote connection's bearer token, or null to read as anonymous. */
  token: string | null;
  /**
   * The query document as the tab holds it (its variables filled in): text, not parsed, so a 64-bit
   * id in its filter reaches the source as the digits typed, never rounded by a JSON.parse on the way
   * (shared/big-number.ts). Whoever runs the clone parses it keeping those digits.
   */
  query: string;
  depth: number;
  maxRecords?: number;
  withFiles: boolean;
  redact: string[];
  /** Names the new local connection ("Local copy of Production"). */
  name: string;
}

export interface CloneModelCount {
  namespace: string;
  fetched: number;
  total: number;
}

export interface CloneProgress {
  phase: 'schema' | 'records' | 'files' | 'writing' | 'done';
  /** The relation level being fetched (0: the query's own records). */
  level: number;
  requests: number;
  models: CloneModelCount[];
  files?: { done: number; total: number };
  /** Set while the source's 429 is being waited out. */
  rateLimitedMs?: number;
}

/**
 * A local connection to the copy, served by a server the console's own server (or main) started. It
 * carries no credential: the copy's local admin credential never reaches the page (docs/workspace.md "The
 * local admin"). Whoever started the copy holds it and signs the page's requests to the copy: main in
 * the desktop app (the copy is in its connection registry under `connectionId`), the console's own
 * server in browser mode (`url` is then a path of that server, which forwards to the copy for its
 * launch cookie's holder: COPY_PATH).
 */
export interface CloneConnection {
  name: string;
  url: string;
  /** The id of the copy's connection, under which main (or the console's server) holds its credential. */
  connectionId: string;
  dataDir: string;
}

/** Where a copy is served under a server's base path: its server's own base path, and the console's path to it. */
export function copyPath(basePath: string, connectionId: string): string {
  return `${basePath}/local/copies/${encodeURIComponent(connectionId)}`;
}

export type CloneJobStatus =
  | { state: 'running'; progress: CloneProgress }
  | { state: 'done'; progress: CloneProgress; connection: CloneConnection; manifest: CloneManifest }
  | { state: 'failed'; progress: CloneProgress; message: string }
  | { state: 'cancelled'; progress: CloneProgress };

/** One read stopped because the source paged wrongly (`clone-manifest.json` "incomplete"). */
export interface CloneIncomplete {
  /** `app.Model` (or `app.Collection`). */
  model: string;
  /** Which read: "crm.Case (the query)", "crm.Comment (comments of crm.Case)". */
  read: string;
  /** What the source did, and on which page. */
  reason: string;
  /** Records this read got before it stopped. */
  copied: number;
  /** The read's total as the source said it (`filtered`), or null when it did not say. */
  sourceSaid: number | null;
}

export interface CloneManifest {
  format: 1;
  source: { url: string; workspace: string; version: string | null };
  clonedAt: string;
  query: JsonValue;
  depth: number;
  maxRecords: number;
  withFiles: boolean;
  /** HTTP requests made to the source (describe, reads, file downloads; a login too when used). */
  requests: number;
  /** Relation levels fetched: the query's records, `depth` levels, then the references they still needed. */
  levels: number;
  /** Records written, per namespace. */
  counts: Record<string, number>;
  /** `app.Model.field` (or `app.Collection.key`) whose values are deterministic fakes. */
  redacted: string[];
  /** Fields left empty because the source never serializes them (writeOnly, hidden). */
  emptied: Array<{ field: string; reason: string; records: number }>;
  /** Required fields that hold a stand-in value in the copy. */
  placeholders: Array<{ field: string; value: string; records: number }>;
  files: { metadataOnly: number; downloaded: number; alreadyStored: number };
  /** What could not be copied, each with why. */
  notCopied: Array<{ what: string; reason: string }>;
  /**
   * Reads the source did not page as asked (ids repeated or falling, an empty page while it said
   * more): each stopped there, so the copy of that model is partial. Empty when none.
   */
  incomplete: CloneIncomplete[];
  /** The workspace's notes (controllers and hooks not copied, options left out). */
  notes: string[];
}
