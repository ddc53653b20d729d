/**
 * Test helper: opens a server's launch URL (`serve --local-admin`) the way a browser on this machine
 * does, and answers the cookie it was given, ready for a `Cookie` header.
 */
import type { RunningServer } from '../index.ts';

export async function launchCookie(server: RunningServer): Promise<string> {
  if (!server.launchUrl) throw new Error('the server was started without localAdmin');
  const response = await fetch(server.launchUrl, { redirect: 'manual' });
  if (response.status !== 303) throw new Error(`the launch URL answered ${response.status}`);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('jql_local_admin='));
  if (!cookie) throw new Error('the launch URL set no local admin cookie');
  return cookie.split(';')[0] as string;
}
