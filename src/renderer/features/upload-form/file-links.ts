/**
 * Links to the stored files of an upload's result (PROTOCOL.md 9.2, 9.3). A file value's `url` is a
 * path on the server's origin. A signed (protected) URL opens as it is; an unprotected one needs the
 * caller's credentials, which a plain link carries only with session cookies, so a bearer-token
 * connection downloads it through the transport instead.
 */
import type { AuthenticationClass, FileValue, JsonValue } from '../../../shared/protocol.ts';

export interface FileLink {
  /** Where the value sits in the payload, e.g. `file` or `documents.0.file`. */
  path: string;
  value: FileValue;
  /** Absolute URL on the server's origin. */
  href: string;
  signed: boolean;
  /** When a signed URL stops working, if it says. */
  expiresAt: Date | null;
}

export function isFileValue(value: unknown): value is FileValue {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return typeof v.url === 'string' && typeof v.name === 'string' && typeof v.size === 'number' && typeof v.sha256 === 'string';
}

/** `url` is a path on the server's origin; `baseUrl` may carry a base path that `url` already includes. */
export function absoluteFileUrl(url: string, baseUrl: string): string {
  try {
    return new URL(url, new URL(baseUrl).origin).toString();
  } catch {
    return url;
  }
}

export function findFileLinks(payload: JsonValue | undefined, baseUrl: string, maxDepth = 4): FileLink[] {
  const links: FileLink[] = [];
  const visit = (value: JsonValue | undefined, path: string[], depth: number) => {
    if (isFileValue(value)) {
      const href = absoluteFileUrl(value.url, baseUrl);
      let signed = false;
      let expiresAt: Date | null = null;
      try {
        const params = new URL(href).searchParams;
        signed = params.has('signature');
        const expires = Number(params.get('expires'));
        if (signed && Number.isFinite(expires) && expires > 0) expiresAt = new Date(expires * 1000);
      } catch {
        // not a URL we can read: keep it unsigned
      }
      links.push({ path: path.join('.'), value, href, signed, expiresAt });
      return;
    }
    if (depth >= maxDepth || typeof value !== 'object' || value === null) return;
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    for (const [key, child] of entries) visit(child, [...path, key], depth + 1);
  };
  visit(payload, [], 0);
  return links;
}

export type FileAccess = 'link' | 'fetch';

/** `link`: the browser can open the URL itself; `fetch`: it needs the Authorization header. */
export function fileAccess(link: FileLink, authClass: AuthenticationClass, hasToken: boolean): FileAccess {
  if (link.signed) return 'link';
  return authClass === 'jwt' && hasToken ? 'fetch' : 'link';
}
