/**
 * Browser mode's way in (docs/protocol.md "The local admin"), as Jupyter's token URL: the server prints
 * `Open http://127.0.0.1:PORT/?key=<launch key>`; a visit from this machine exchanges the key, once (a
 * second visit is refused), for two halves: an HttpOnly, SameSite=Strict cookie named with the port,
 * and a secret for the page, in the body of a small page whose script keeps it in this origin's
 * localStorage and replaces itself with `/`, so the key leaves the address bar and history. The
 * secret is never in a URL. A stale cookie (an earlier start's) is cleared by the answer to the first
 * request that presents it, so the console falls back to anonymous.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LOCAL_ADMIN_STORAGE_KEY } from '../../shared/local-admin.ts';
import { localAdminCookieName, sameSecret, type LocalAdminKeys } from '../auth/local-admin.ts';
import { localAdminCookieOf, mayActAsLocalAdmin } from '../http/local-admin-request.ts';

/** The query parameter of the launch URL. */
export const LAUNCH_KEY_PARAM = 'key';

/** A session cookie (no Max-Age): it ends with the browser, and is worthless after a restart anyway. */
const COOKIE_OPTIONS = { httpOnly: true, sameSite: 'strict', path: '/', secure: false } as const;

export function launchUrl(origin: string, keys: LocalAdminKeys): string {
  return `${origin}/?${LAUNCH_KEY_PARAM}=${keys.key}`;
}

const page = (title: string, text: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>JQL Console</title></head>
<body style="font: 14px system-ui, sans-serif; margin: 3rem; max-width: 40rem">
<h1>${title}</h1>
<p>${text}</p>
</body></html>`;

/** The meta element the exchange page carries the page secret in (tests read it as the page does). */
export const PAGE_SECRET_META = 'jql-local-admin-secret';

// The same script for every start (the secret is in the meta element), so the CSP can allow it by hash.
const KEEP_SECRET_SCRIPT = `try{localStorage.setItem(${JSON.stringify(LOCAL_ADMIN_STORAGE_KEY)},document.querySelector('meta[name="${PAGE_SECRET_META}"]').content);location.replace('/');}catch(e){document.getElementById('why').hidden=false;}`;
const EXCHANGE_CSP = `default-src 'none'; script-src 'sha256-${createHash('sha256').update(KEEP_SECRET_SCRIPT).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const exchangePage = (secret: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>JQL Console</title><meta name="${PAGE_SECRET_META}" content="${secret}"></head>
<body style="font: 14px system-ui, sans-serif; margin: 3rem; max-width: 40rem">
<p>Opening the console…</p>
<p id="why" hidden>This browser keeps no site data for this page (localStorage), so the console cannot be the local admin here. Allow site data for this address, then restart the server for a new link.</p>
<noscript><p>The console needs JavaScript.</p></noscript>
<script>${KEEP_SECRET_SCRIPT}</script>
</body></html>`;

/** Answers `GET /?key=…`: the cookie and the page that keeps the secret, or a page saying why not. */
export function exchangeLaunchKey(request: FastifyRequest, reply: FastifyReply, keys: LocalAdminKeys | undefined, presented: string): FastifyReply {
  reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').header('X-Content-Type-Options', 'nosniff');
  if (!keys || !sameSecret(keys.key, presented)) {
    return reply
      .code(401)
      .type('text/html; charset=utf-8')
      .send(page('This launch link is not valid', 'It belongs to an earlier start of the server, or it was mistyped. Open the link the server printed when it started (<code>Open http://…/?key=…</code>).'));
  }
  if (!mayActAsLocalAdmin(request)) {
    return reply
      .code(403)
      .type('text/html; charset=utf-8')
      .send(page('Open the launch link on the machine that runs the server', 'The local admin link works only from this machine, at the address the server printed (a loopback address with its port).'));
  }
  if (keys.exchanged) {
    return reply
      .code(410)
      .type('text/html; charset=utf-8')
      .send(page('This launch link was already used', 'A launch link makes one browser the local admin, once. Restart the server (<code>jql-console serve --local-admin</code>) for a new link.'));
  }
  keys.exchanged = true;
  return reply
    .setCookie(localAdminCookieName(request.raw.socket.localPort as number), keys.cookie, COOKIE_OPTIONS)
    .header('Content-Security-Policy', EXCHANGE_CSP)
    .type('text/html; charset=utf-8')
    .send(exchangePage(keys.pageSecret));
}

/**
 * For the one onRequest hook (http/request-gate.ts): a local admin cookie of this server's port that is
 * not this start's is cleared by the answer; other ports' cookies are other servers'.
 */
export function clearStaleLocalAdminCookie(keys: () => LocalAdminKeys | undefined) {
  return (request: FastifyRequest, reply: FastifyReply): void => {
    const value = localAdminCookieOf(request);
    if (value !== undefined) {
      const current = keys();
      if (!current || !sameSecret(current.cookie, value)) reply.clearCookie(localAdminCookieName(request.raw.socket.localPort as number), COOKIE_OPTIONS);
    }
  };
}
