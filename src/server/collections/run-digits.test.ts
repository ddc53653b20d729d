import { createServer, type Server } from 'node:http';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serializeManifest, serializeRequestFile } from '../../shared/collections/format.ts';
import { tempDir } from '../testing/fixture.ts';
import { runCommand } from './run-command.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A server on loopback that keeps every body it is sent and answers each with `answer`. */
async function recordingServer(answer: string): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, bodies };
}

describe('jql-console run: 64-bit ids in a saved request', () => {
  it('sends them, and a captured one, as the digits written, not rounded to another record', async () => {
    const { url, bodies } = await recordingServer('{"__payload__": {"id": 12345678901234567890}}');
    const dir = tempDir('jql-digits-');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'jql-collection.json'), serializeManifest({ name: 'Digits', format: 1 }));
    mkdirSync(join(dir, 'reads'));
    const file = (document: string, captures: Array<{ variable: string; path: string }> = []) => serializeRequestFile({ document, options: {}, assertions: [], captures, tags: [] });
    writeFileSync(join(dir, 'reads', '1-first.jql.json'), file('{"tickets.Ticket": {"__meta__": {"filter": {"id": 9007199254740993}}}}', [{ variable: 'id', path: '$.__payload__.id' }]));
    writeFileSync(join(dir, 'reads', '2-second.jql.json'), file('{"tickets.Ticket": {"__meta__": {"filter": {"id": "{{id}}"}}}}'));
    const code = await runCommand([dir, '--server', url], { out: () => undefined, readPassword: async () => '', env: {} });
    expect(code).toBe(0);
    expect(bodies).toEqual(['{"tickets.Ticket":{"__meta__":{"filter":{"id":9007199254740993}}}}', '{"tickets.Ticket":{"__meta__":{"filter":{"id":12345678901234567890}}}}']);
  });
});
