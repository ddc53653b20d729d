/**
 * A URL the user typed, fit to be quoted in a message (issue 32.9): a URL that does not parse (a bad
 * port) is echoed back, and the password in it must not be.
 */
/** `raw` with any `user:password@` cut out, for a message about a URL that did not parse. */
export function withoutCredentials(raw: string): string {
  return raw.replace(/^([a-z][\w+.-]*:\/\/)[^/?#]*@/i, '$1…@');
}
