/**
 * JSON text of a value for showing, cut to a length: a raw value kept by the boundary may hold a
 * 50 MB string, which must not become a 50 MB text node.
 */
export const SHOWN_JSON_CHARS = 20_000;

/** Strings longer than this are shown cut, with "show all" (a string over 1 MiB would stall drawing). */
export const LONG_STRING_CHARS = 1024 * 1024;

export function boundedJson(value: unknown, max = SHOWN_JSON_CHARS): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' && v.length > max ? `${v.slice(0, max)}…` : v), 2) ?? String(value);
  } catch (err) {
    return `(cannot be shown: ${(err as Error).message})`;
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length.toLocaleString('en')} characters in all)` : text;
}
