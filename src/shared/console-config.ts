/**
 * What `GET /console-config.json` answers (src/server/web/serve-console.ts): the browser-mode console
 * reads it on start to build its embedded connection on the same origin as the page.
 */
export interface ConsoleConfig {
  /** The server's base path, '' or '/api': the embedded connection's URL is the page origin + this. */
  basePath: string;
  /** The server's version, shown in the connection's status. */
  version: string;
  /**
   * Present only when the server runs with `--local-admin`: the token of the local admin user, so the
   * embedded connection is signed in without a prompt (WORKSPACE.md "The first users").
   */
  localAdminToken?: string;
}

export function isConsoleConfig(value: unknown): value is ConsoleConfig {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.basePath === 'string' &&
    typeof v.version === 'string' &&
    (v.localAdminToken === undefined || typeof v.localAdminToken === 'string')
  );
}
