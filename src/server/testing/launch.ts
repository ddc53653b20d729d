/**
 * Test helper: opens a server's launch URL (`serve --local-admin`) the way a browser on this machine
 * does, and answers both halves it was given: the cookie (ready for a `Cookie` header) and the page's
 * secret (which the page sends in the X-JQL-Local-Admin header), and the headers of a request that
 * presents both.
 */
import type { RunningServer } from '../index.ts';
import { PAGE_SECRET_META } from '../web/launch-exchange.ts';

export interface LaunchCredential {
  /** `jql_local_admin_<port>=<value>` */
  cookie: string;
  secret: string;
  /** Cookie and secret header, as the console's own requests send them. */
  headers: { cookie: string; 'x-jql-local-admin': string };
}

/** Both halves from a launch exchange's answer. */
export async function readExchange(response: Response): Promise<LaunchCredential> {
  if (response.status !== 200) throw new Error(`the launch URL answered ${response.status}`);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('jql_local_admin_'))?.split(';')[0];
  if (!cookie) throw new Error('the launch URL set no local admin cookie');
  const secret = new RegExp(`<meta name="${PAGE_SECRET_META}" content="([\\w-]+)">`).exec(await response.text())?.[1];
  if (!secret) throw new Error('the launch page handed no secret to the page');
  return { cookie, secret, headers: { cookie, 'x-jql-local-admin': secret } };
}

export async function launchCredential(server: RunningServer): Promise<LaunchCredential> {
  if (!server.launchUrl) throw new Error('the server was started without localAdmin');
  return readExchange(await fetch(server.launchUrl, { redirect: 'manual' }));
}
