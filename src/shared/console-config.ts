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
   * True when this browser acts as the local admin: it opened the launch URL that `serve
   * --local-admin` printed and holds its HttpOnly cookie. The page never holds the credential itself;
   * its requests to the same origin carry the cookie (docs/protocol.md "The local admin").
   */
  localAdmin?: boolean;
}

export function isConsoleConfig(value: unknown): value is ConsoleConfig {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.basePath === 'string' && typeof v.version === 'string' && (v.localAdmin === undefined || typeof v.localAdmin === 'boolean');
}
