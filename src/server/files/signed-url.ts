/**
 * File URLs (docs/protocol.md "File URLs"): a plain `{base}/jql/files/:id` for unprotected fields, and for
 * `protected` fields the same path with `?expires=<unix>&signature=<hmac>`, an HMAC-SHA256 over the id
 * and the expiry keyed with the server's secret. Such a URL is a secret: it is never logged.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a signed URL stays valid. */
export const SIGNED_URL_SECONDS = 15 * 60;

export type UrlSigner = (id: string, protectedField: boolean) => string;

export function fileUrlPath(basePath: string, id: string): string {
  return `${basePath}/jql/files/${encodeURIComponent(id)}`;
}

/** The file id a URL made by `fileUrlPath` (signed or not) names. */
export function fileIdOfUrl(url: string): string {
  const path = url.split('?')[0] as string;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

export function createUrlSigner(secret: Uint8Array, basePath: string, now: () => number = () => Date.now()): UrlSigner {
  return (id, protectedField) => {
    const path = fileUrlPath(basePath, id);
    if (!protectedField) return path;
    const expires = Math.floor(now() / 1000) + SIGNED_URL_SECONDS;
    return `${path}?expires=${expires}&signature=${signatureOf(secret, id, expires)}`;
  };
}

export function signatureOf(secret: Uint8Array, id: string, expires: number): string {
  // The id is opaque text without a newline, so "id\nexpiry" names exactly one (id, expiry) pair.
  return createHmac('sha256', secret).update(`${id}\n${expires}`).digest('base64url');
}

export type SignatureCheck = 'valid' | 'missing' | 'expired' | 'invalid';

/** Checks the query parameters of a signed URL, in constant time for the signature itself. */
export function checkSignature(secret: Uint8Array, id: string, expiresText: unknown, signature: unknown, now: number = Date.now()): SignatureCheck {
  if (expiresText === undefined && signature === undefined) return 'missing';
  if (typeof expiresText !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expiresText)) return 'invalid';
  const expires = Number(expiresText);
  const expected = Buffer.from(signatureOf(secret, id, expires));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return expires * 1000 < now ? 'expired' : 'valid';
}
