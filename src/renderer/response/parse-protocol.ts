/** Messages between parse-response.ts and parse.worker.ts. */
import type { NormalizeHints } from './normalize-envelope.ts';
import type { ResultView } from './result-view.ts';

export interface ParseRequest {
  id: number;
  /** Transferred, not copied: the caller keeps its own copy of the bytes for raw view and saving. */
  buffer: ArrayBuffer;
  httpStatus: number;
  hints: NormalizeHints;
}

export type ParseReply = { id: number; view: ResultView } | { id: number; failure: string };
