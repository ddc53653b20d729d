import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './csp.ts';

const directives = (csp: string) => Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));

describe('contentSecurityPolicy', () => {
  it('allows only the app itself to run code and to connect', () => {
    const d = directives(contentSecurityPolicy());
    expect(d['default-src']).toEqual(["'none'"]);
    expect(d['script-src']).toEqual(["'self'"]);
    expect(d['connect-src']).toEqual(["'self'"]);
    expect(d['object-src']).toEqual(["'none'"]);
    expect(d['frame-ancestors']).toEqual(["'none'"]);
    expect(d['worker-src']).toEqual(["'self'", 'blob:']);
    expect(contentSecurityPolicy()).not.toContain('unsafe-eval');
    expect(d['script-src']).not.toContain("'unsafe-inline'");
  });

  it('adds the dev server and its HMR socket in development only', () => {
    const d = directives(contentSecurityPolicy({ devServerOrigin: 'http://localhost:5173' }));
    expect(d['script-src']).toContain('http://localhost:5173');
    expect(d['connect-src']).toContain('ws://localhost:5173');
  });
});
