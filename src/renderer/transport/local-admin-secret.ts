/**
 * The page's half of browser mode's local admin (docs/protocol.md "The local admin", issue 30.1): the
 * launch exchange left a secret in this origin's localStorage; the server takes its HttpOnly cookie
 * as the local admin only together with that secret, in the X-JQL-Local-Admin header (or, on a
 * WebSocket, which cannot carry headers, as a subprotocol). The secret goes to this page's own origin
 * only, never to another server and never in a URL: a cookie another server on 127.0.0.1 catches is
 * then worth nothing without it.
 */
import { LOCAL_ADMIN_HEADER, LOCAL_ADMIN_STORAGE_KEY, LOCAL_ADMIN_SUBPROTOCOL } from '../../shared/local-admin.ts';

/** Where the secret comes from: the page's origin and its storage (tests pass their own). */
export interface LocalAdminPage {
  origin: string;
  secret(): string | null;
}

/** The page this code runs in, or null outside a page (a worker, node in unit tests). */
export function currentPage(): LocalAdminPage | null {
  if (typeof location === 'undefined' || typeof localStorage === 'undefined') return null;
  return {
    origin: location.origin,
    secret: () => {
      try {
        return localStorage.getItem(LOCAL_ADMIN_STORAGE_KEY) || null;
      } catch {
        // Site data blocked: the page is anonymous.
        return null;
      }
    },
  };
}

/** Whether `url` (http(s) or ws(s), absolute or relative) is the page's own origin. */
function isOwnOrigin(url: string, origin: string): boolean {
  try {
    const target = new URL(url, origin);
    const scheme = target.protocol === 'ws:' ? 'http:' : target.protocol === 'wss:' ? 'https:' : target.protocol;
    return `${scheme}//${target.host}` === origin;
  } catch {
    return false;
  }
}

function secretFor(url: string, page: LocalAdminPage | null): string | null {
  return page && isOwnOrigin(url, page.origin) ? page.secret() : null;
}

/** The header that carries the secret, for a request to the page's own origin; none for another. */
export function localAdminHeaders(url: string, page: LocalAdminPage | null = currentPage()): Record<string, string> {
  const secret = secretFor(url, page);
  return secret ? { [LOCAL_ADMIN_HEADER]: secret } : {};
}

/**
 * The subprotocols a WebSocket to the page's own origin offers: `jql-local-admin` first (the one the
 * server selects, so the secret is never echoed back) and `jql-local-admin.<secret>`; none for another origin.
 */
export function localAdminProtocols(url: string, page: LocalAdminPage | null = currentPage()): string[] {
  const secret = secretFor(url, page);
  return secret ? [LOCAL_ADMIN_SUBPROTOCOL, `${LOCAL_ADMIN_SUBPROTOCOL}.${secret}`] : [];
}
