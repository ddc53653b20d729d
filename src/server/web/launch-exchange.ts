/**
 * Browser mode's way in (docs/protocol.md "The local admin"), as Jupyter's token URL: the server prints
 * `Open http://127.0.0.1:PORT/?key=<launch key>`; a visit from this machine exchanges the key for an
 * HttpOnly, SameSite=Strict cookie, once (a second visit is refused), and is redirected to `/`, so
 * the key leaves the address bar and no script of the page ever holds a credential. A stale cookie (an earlier start's) is cleared by the
 * answer to the first request that presents it, so the console falls back to anonymous.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { LOCAL_ADMIN_COOKIE, sameSecret, type LocalAdminKeys } from '../auth/local-admin.ts';
import { mayActAsLocalAdmin } from '../http/local-admin-request.ts';

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

/** Answers `GET /?key=…`: the cookie and a redirect to `/`, or a page saying why not. */
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
  return reply.setCookie(LOCAL_ADMIN_COOKIE, keys.cookie, COOKIE_OPTIONS).redirect('/', 303);
}

/**
 * An onRequest hook: a local admin cookie that is not this start's is cleared by the answer. In
 * fastify's callback style, as every global hook: an async one costs every request a promise.
 */
export function clearStaleLocalAdminCookie(keys: () => LocalAdminKeys | undefined) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const value = request.cookies?.[LOCAL_ADMIN_COOKIE];
    if (value !== undefined) {
      const current = keys();
      if (!current || !sameSecret(current.cookie, value)) reply.clearCookie(LOCAL_ADMIN_COOKIE, COOKIE_OPTIONS);
    }
    done();
  };
}
