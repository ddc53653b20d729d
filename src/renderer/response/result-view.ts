/**
 * The one view model the envelope viewer draws, whatever the server answered: the standard envelope
 * (docs/protocol.md "The envelope"), the flat shape (3.3), a bare `render: only:data` payload (3.4), a multi-query
 * (7), or a body that is not JSON at all. Built by normalize-envelope.ts (the boundary), never by
 * React code: every value in it has the type it says, and what the server sent that did not fit is
 * listed in `misfits`, so nothing past the boundary checks shapes again.
 */
import type { Extras, JqlError, JsonValue, SystemInfo } from '../../shared/protocol.ts';
import type { DuplicateKeys } from './duplicate-keys.ts';
import type { Misfit } from './schema/lenient.ts';
import { SHOWN_ERRORS } from './count-caps.ts';

export type { DuplicateKeys, Misfit };

export type EnvelopeShape = 'envelope' | 'flat' | 'data-only' | 'not-json';

/** One result: the whole response of a single query, or one key of a multi-query. */
export interface ResultSection {
  /** The multi-query key, or null for a single query. */
  name: string | null;
  intent: string | null;
  message: string | null;
  /** Null too when the payload was nested too deeply to show (`tooDeep` on the view). */
  payload: JsonValue;
  extras: Extras | null;
  /** At most SHOWN_ERRORS (count-caps.ts): the first the server sent that fit the protocol. */
  errors: JqlError[];
  /**
   * Errors the server sent past the first SHOWN_ERRORS: counted, not read (nor checked: a misfit
   * among them is not named); the raw answer has them.
   */
  errorsUnread: number;
  notices: string[];
}

export interface ResultView {
  httpStatus: number;
  shape: EnvelopeShape;
  /** True when the request failed as a whole (HTTP error or envelope errors outside any subquery). */
  failed: boolean;
  intent: string | null;
  message: string | null;
  /** Errors of the request as a whole (e.g. invalid_json); subquery errors live in their section. */
  errors: JqlError[];
  /** Request errors past the first SHOWN_ERRORS, counted but not read (as in a section). */
  errorsUnread: number;
  /** `sql` holds at most SHOWN_SQL statements (count-caps.ts). */
  system: SystemInfo | null;
  /** Statements of `system.sql` past the first SHOWN_SQL: counted, not read nor checked. */
  sqlUnread: number;
  /** One section for a single query, one per key for a multi-query. */
  sections: ResultSection[];
  isMulti: boolean;
  /** Set when the body could not be read as JSON (or not at all). */
  parseError: string | null;
  /** What the server sent that did not fit the protocol, each named in one sentence. */
  misfits: Misfit[];
  /** Some of the answer was nested deeper than the console shows as a tree: see the raw body. */
  tooDeep: boolean;
  /**
   * Keys the body sends twice in one object (JSON.parse kept the last): null when none, or when the
   * view was built from a parsed value rather than the text.
   */
  duplicateKeys: DuplicateKeys | null;
}

/**
 * The first SHOWN_ERRORS errors of a view (request errors, then each subquery's), each with the
 * subquery it belongs to (null: the whole request). No view draws more, so no more are listed:
 * errorCount says how many there are in all.
 */
export function allErrors(view: ResultView): Array<{ section: string | null; error: JqlError }> {
  const out: Array<{ section: string | null; error: JqlError }> = [];
  for (const [name, errors] of [[null, view.errors] as const, ...view.sections.map((s) => [s.name, s.errors] as const)]) {
    for (const error of errors) {
      if (out.length === SHOWN_ERRORS) return out;
      out.push({ section: name, error });
    }
  }
  return out;
}

/** How many errors the answer holds, read or not (the Errors tab's badge, its cut notice). */
export function errorCount(view: ResultView): number {
  return view.sections.reduce((n, s) => n + s.errors.length + s.errorsUnread, view.errors.length + view.errorsUnread);
}
