/** Messages between parse-response.ts and parse.worker.ts. */
import type { DescribeRead } from './schema/describe-schema.ts';
import type { NormalizeHints } from './normalize-envelope.ts';
import type { LongString } from './long-strings.ts';
import type { LongTextUnits } from './long-text.ts';
import type { ResultView } from './result-view.ts';
import type { HttpRequestSpec, HttpResult } from '../transport/transport.ts';

/** `answer`: a /jql answer for the viewer; `describe`: a system.Schema.describe answer, read into a DescribeResult too. */
export type ParseKind = 'answer' | 'describe';

export interface ParseRequest {
  id: number;
  /**
   * Transferred, not copied. Either a copy (the caller keeps its own bytes), or, with `raw`, the
   * caller's own bytes handed over: the worker then makes the raw Blob of them and sends it first.
   */
  buffer: ArrayBuffer;
  /** Make the raw answer's Blob (of this type) in the worker, so the window copies no large body. */
  raw?: { type: string };
  httpStatus: number;
  hints: NormalizeHints;
  kind: ParseKind;
}

/**
 * A Run's request, or a describe's, sent by the worker itself (run-in-worker.ts, issue 31): the
 * answer's bytes are read on the worker's thread and never reach the window's. `fetch` carries the
 * headers the page adds (the local admin's secret goes in a header, by message, never in a URL) and
 * the answer limit. `kind` (default `answer`): a describe is read into a DescribeResult and has no
 * raw Blob.
 */
export interface FetchRunRequest {
  id: number;
  fetch: HttpRequestSpec;
  hints: NormalizeHints;
  kind?: ParseKind;
}

/** Stop request `id`: a fetch is aborted (the browser stops reading), any later reply is dropped. */
export interface AbortRequest {
  id: number;
  abort: true;
}

export type WorkerRequest = ParseRequest | FetchRunRequest | AbortRequest;

/** What the worker's fetch answered, less its body; `size`: the body's bytes. Sent before the raw answer. */
export type ResponseHead = Omit<HttpResult, 'body'> & { size: number };

export interface HeadReply {
  id: number;
  head: ResponseHead;
}

/** The worker's fetch failed: the transport's own sentence (no answer, a redirect, over the limit...). */
export interface FetchFailedReply {
  id: number;
  fetchFailed: { cancelled: boolean; message: string };
}

/**
 * `longStrings`: strings taken out of the reply, to put back before it is read (long-strings.ts);
 * `longTexts`: the code units of the placeholders in a Run's payload, to register (long-text.ts).
 */
export type ParseReply = { id: number; view: ResultView; describe?: DescribeRead; longStrings?: LongString[]; longTexts?: LongTextUnits[] } | { id: number; failure: string } | RawReply | HeadReply | FetchFailedReply;

/** The raw answer, sent before the parse starts: a parse that fails or stops the worker cannot lose it. */
export interface RawReply {
  id: number;
  raw: Blob;
}
