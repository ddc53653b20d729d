/**
 * The page's half of the browser-mode local admin (docs/protocol.md "The local admin", issue 30.1):
 * the launch exchange sets an HttpOnly cookie and hands the page a secret it keeps in its origin's
 * localStorage (per scheme, host and port). Only the two together are the local admin: a cookie
 * caught by another server on the same host (cookies ignore ports) and replayed is anonymous.
 */

/** The header the console's own requests carry the page's secret in. */
export const LOCAL_ADMIN_HEADER = 'X-JQL-Local-Admin';

/**
 * A browser WebSocket cannot set headers: the page offers this subprotocol, which the server selects,
 * and the secret as a second one, `jql-local-admin.<secret>` (base64url is a valid protocol token).
 */
export const LOCAL_ADMIN_SUBPROTOCOL = 'jql-local-admin';

/** The localStorage key of the secret. */
export const LOCAL_ADMIN_STORAGE_KEY = 'jql-local-admin-secret';
