/**
 * The Content-Security-Policy of the console window. Strict: only the app's own scripts, no eval,
 * no inline script, no plugins, no framing. Styles allow 'unsafe-inline' because Monaco injects
 * its styles at run time; workers may be blob: for the same reason.
 * In Electron every request to a JQL server goes through main, so connect-src stays 'self'.
 */
export interface CspOptions {
  /** The Vite dev server origin when running `electron-vite dev` (its HMR socket needs ws:). */
  devServerOrigin?: string;
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const dev = options.devServerOrigin;
  const devWs = dev ? dev.replace(/^http/, 'ws') : '';
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'none'"]],
    ['script-src', ["'self'", ...(dev ? [dev] : [])]],
    ['style-src', ["'self'", "'unsafe-inline'", ...(dev ? [dev] : [])]],
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'", 'data:', ...(dev ? [dev] : [])]],
    ['worker-src', ["'self'", 'blob:']],
    ['connect-src', ["'self'", ...(dev ? [dev, devWs] : [])]],
    ['manifest-src', ["'self'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ['frame-src', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
    ['object-src', ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}
