/** Messages between parse-response.ts and parse.worker.ts. */
import type { DescribeRead } from './schema/describe-schema.ts';
import type { NormalizeHints } from './normalize-envelope.ts';
import type { ResultView } from './result-view.ts';

/** `answer`: a /jql answer for the viewer; `describe`: a system.Schema.describe answer, read into a DescribeResult too. */
export type ParseKind = 'answer' | 'describe';

export interface ParseRequest {
  id: number;
  /** Transferred, not copied: the caller keeps its own copy of the bytes for raw view and saving. */
  buffer: ArrayBuffer;
  httpStatus: number;
  hints: NormalizeHints;
  kind: ParseKind;
}

export type ParseReply = { id: number; view: ResultView; describe?: DescribeRead } | { id: number; failure: string };
