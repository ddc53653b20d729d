// Issue 30.3: a --cors server lets the allowed origin's browser upload (PUT /jql), not only query.
import { describe, expect, it } from 'vitest';
import { testApp } from '../testing/fixture.ts';

const ORIGIN = 'http://console.example:5173';

describe('--cors preflight', () => {
  it('allows PUT /jql (multipart uploads) next to POST, for the allowed origin only', async () => {
    const { app, close } = await testApp({ cors: [ORIGIN] });
    try {
      const preflight = (origin: string, method: string) =>
        app.inject({ method: 'OPTIONS', url: '/jql', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type, authorization' } });
      for (const method of ['PUT', 'POST']) {
        const allowed = await preflight(ORIGIN, method);
        expect(allowed.statusCode).toBe(204);
        expect(allowed.headers['access-control-allow-origin']).toBe(ORIGIN);
        expect(String(allowed.headers['access-control-allow-methods']).split(/,\s*/)).toContain(method);
        expect(String(allowed.headers['access-control-allow-headers'])).toContain('authorization');
      }
      const foreign = await preflight('http://elsewhere.example', 'PUT');
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await close();
    }
  });
});
