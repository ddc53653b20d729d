/**
 * How many of a list the console reads and draws: the one place for these caps. An answer of
 * 50,000 errors or 50,000 SQL statements would otherwise be checked entry by entry at the boundary,
 * copied from the parse worker and drawn, freezing the window for seconds (issue 31). The boundary
 * reads only the first entries of such a list and counts the rest, which stay in the raw answer
 * (the Raw view shows the body as it came); the views say how many more there are.
 */

export const SHOWN_ERRORS = 500;
export const SHOWN_SQL = 500;
export const SHOWN_COLUMNS = 200;

/** The caps the boundary reads lists by; a test passes Infinity to read an answer whole and compare. */
export interface ListCaps {
  errors: number;
  sql: number;
}

export const LIST_CAPS: ListCaps = { errors: SHOWN_ERRORS, sql: SHOWN_SQL };

/**
 * The first `cap` entries of what the server sent as a list, and how many entries past them are
 * left unread. Anything that is not a list longer than `cap` comes back as it is (unread 0), so the
 * boundary reads it, and names its misfits, exactly as before.
 */
export function headOfList(raw: unknown, cap: number): { head: unknown; unread: number } {
  if (!Array.isArray(raw) || raw.length <= cap) return { head: raw, unread: 0 };
  return { head: raw.slice(0, cap), unread: raw.length - cap };
}
