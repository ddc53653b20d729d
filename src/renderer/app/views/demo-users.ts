/**
 * The demo workspace's users with the passwords the README prints, so "same connection, two users"
 * on the embedded demo server is two clicks. Only offered when the embedded server says its
 * workspace is the demo; any other workspace signs in with a typed password.
 */
export const DEMO_WORKSPACE = 'demo';

export const DEMO_USERS: ReadonlyArray<{ username: string; password: string; role: string }> = [
  { username: 'admin', password: 'admin-demo', role: 'admin' },
  { username: 'agent', password: 'agent-demo', role: 'agent' },
  { username: 'viewer', password: 'viewer-demo', role: 'no role' },
];
