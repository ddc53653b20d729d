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
  errors: JqlError[];
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
  system: SystemInfo | null;
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

/** Every error of a view, each with the subquery it belongs to (null: the whole request). */
export function allErrors(view: ResultView): Array<{ section: string | null; error: JqlError }> {
  const out: Array<{ section: string | null; error: JqlError }> = view.errors.map((error) => ({
    section: null,
    error,
  }));
  for (const section of view.sections) {
    for (const error of section.errors) out.push({ section: section.name, error });
  }
  return out;
}
