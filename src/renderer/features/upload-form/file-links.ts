/**
 * Links to the stored files of an upload's result (docs/protocol.md "File URLs"). Only the fields that
 * `describe` declares as `file` hold files (issue 21.2): the answer is walked along the model of the
 * upload's namespace, through its references and relations, and a file-shaped object anywhere else
 * (user data in a `json` field, say) is data, never a link. A file value's `url` is a path on the
 * connection's origin; one that names another origin (absolute, protocol-relative) gets no link, so
 * no credential can follow it. A signed (protected) URL opens as it is; an unprotected one needs the
 * caller's credentials, which a plain link carries only with session cookies, so a bearer-token
 * connection downloads it through the transport instead.
 */
import { isSameOrigin } from '../../../shared/origin.ts';
import type { AuthenticationClass, DescribeModel, DescribeResult, FileValue, JsonValue } from '../../../shared/protocol.ts';

export interface FileLink {
  /** Where the value sits in the payload, e.g. `file` or `documents.0.file`. */
  path: string;
  value: FileValue;
  /** Absolute URL on the connection's origin. */
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

/**
 * `url` resolved on the origin of `baseUrl` (which may carry a base path that `url` already
 * includes), or null when it is not a path on that origin.
 */
export function absoluteFileUrl(url: string, baseUrl: string): string | null {
  // A path: not `//host/…` nor `/\host/…`, which browsers read as another host.
  if (!/^\/(?![/\\])/.test(url)) return null;
  try {
    const href = new URL(url, new URL(baseUrl).origin).toString();
    return isSameOrigin(href, baseUrl) ? href : null;
  } catch {
    return null;
  }
}

function modelOf(describe: DescribeResult, namespace: string): DescribeModel | undefined {
  const dot = namespace.indexOf('.');
  if (dot < 0) return undefined;
  return describe.apps[namespace.slice(0, dot)]?.models?.[namespace.slice(dot + 1)];
}

function link(value: FileValue, path: string[], baseUrl: string): FileLink | null {
  const href = absoluteFileUrl(value.url, baseUrl);
  if (!href) return null;
  const params = new URL(href).searchParams;
  const signed = params.has('signature');
  const expires = Number(params.get('expires'));
  return { path: path.join('.'), value, href, signed, expiresAt: signed && Number.isFinite(expires) && expires > 0 ? new Date(expires * 1000) : null };
}

/** The file links of `payload`, records of `namespace`'s model (one, or a list), as `describe` declares them. */
export function findFileLinks(payload: JsonValue | undefined, describe: DescribeResult | null, namespace: string, baseUrl: string, maxDepth = 4): FileLink[] {
  const links: FileLink[] = [];
  if (!describe) return links;
  const visit = (value: JsonValue | undefined, model: DescribeModel | undefined, path: string[], depth: number) => {
    if (!model || depth > maxDepth || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, model, [...path, String(i)], depth + 1));
      return;
    }
    for (const [name, field] of Object.entries(model.fields)) {
      const v = value[name];
      if (field.type === 'file' && isFileValue(v)) {
        const found = link(v, [...path, name], baseUrl);
        if (found) links.push(found);
      } else if (field.type === 'ref' && field.to) visit(v, modelOf(describe, field.to), [...path, name], depth + 1);
    }
    for (const [name, relation] of Object.entries(model.relations ?? {})) visit(value[name], modelOf(describe, relation.many), [...path, name], depth + 1);
  };
  visit(payload, modelOf(describe, namespace), [], 0);
  return links;
}

export type FileAccess = 'link' | 'fetch';

/** `link`: the browser can open the URL itself; `fetch`: it needs the connection's bearer token. */
export function fileAccess(link: FileLink, authClass: AuthenticationClass, signedIn: boolean): FileAccess {
  if (link.signed) return 'link';
  return authClass === 'jwt' && signedIn ? 'fetch' : 'link';
}
