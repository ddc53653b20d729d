/** Messages between parse-response.ts and parse.worker.ts. */
import type { DescribeRead } from './schema/describe-schema.ts';
import type { NormalizeHints } from './normalize-envelope.ts';
import type { LongString } from './long-strings.ts';
import type { ResultView } from './result-view.ts';

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

/** `longStrings`: strings taken out of the reply, to put back before it is read (long-strings.ts). */
export type ParseReply = { id: number; view: ResultView; describe?: DescribeRead; longStrings?: LongString[] } | { id: number; failure: string } | RawReply;

/** The raw answer, sent before the parse starts: a parse that fails or stops the worker cannot lose it. */
export interface RawReply {
  id: number;
  raw: Blob;
}
