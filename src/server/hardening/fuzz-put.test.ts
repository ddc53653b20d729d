// Property-based fuzzing of PUT /jql: random multipart bodies (boundaries, part headers, truncation,
// random queries and file parts). Every answer is a documented code with its status, never a 500,
// and a refused request leaves no file behind.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import { VAULT_WORKSPACE } from '../testing/file-server.ts';
import { testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';
import { expectDocumented, parseBody, runs } from './harness.ts';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace(VAULT_WORKSPACE) });
});
afterAll(() => t.close());

async function put(payload: string | Buffer, contentType: string) {
  const res = await t.app.inject({ method: 'PUT', url: '/jql', headers: { 'content-type': contentType }, payload });
  return { status: res.statusCode, body: parseBody(res.body) };
}

function files(dir: string): string[] {
  try {
    return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [name]));
  } catch {
    return [];
  }
}

const name = fc.oneof(fc.constantFrom('query', 'f', 'c', 'file', 'cover', ''), fc.string({ maxLength: 12 }));
const queryText = fc.oneof(
  fc.constant(JSON.stringify({ __meta__: { namespace: 'vault.Doc', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: 'f' } } }, title: 'x' })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 100 }),
);
const part = fc.record({
  name,
  filename: fc.option(fc.oneof(fc.constantFrom('a.txt', '../../etc/passwd', 'résumé "x".pdf', ''), fc.string({ maxLength: 20 })), { nil: undefined }),
  type: fc.option(fc.constantFrom('text/plain', 'application/json', 'application/octet-stream', 'x/'), { nil: undefined }),
  body: fc.oneof(queryText, fc.string({ maxLength: 300 }), fc.nat(70 * 1024).map((n) => 'z'.repeat(n))),
});

function multipart(boundary: string, parts: Array<{ name: string; filename?: string; type?: string; body: string }>, truncate: number | null): string {
  let text = '';
  for (const p of parts) {
    text += `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}\r\n`;
    if (p.type) text += `Content-Type: ${p.type}\r\n`;
    text += `\r\n${p.body}\r\n`;
  }
  text += `--${boundary}--\r\n`;
  return truncate === null ? text : text.slice(0, truncate % (text.length + 1));
}

describe('PUT /jql fuzzing', () => {
  it('answers random multipart bodies with documented codes and keeps no file of a refused request', async () => {
    const before = files(join(t.dataDir, 'files')).length;
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,40}$/),
        fc.array(part, { maxLength: 4 }),
        fc.option(fc.nat(), { nil: null }),
        fc.constantFrom('multipart/form-data; boundary=', 'multipart/form-data;boundary=', 'multipart/mixed; boundary=', 'multipart/form-data; boundary=X', 'text/plain; b='),
        async (boundary, parts, truncate, type) => {
          const partsBefore = new Set(files(join(t.dataDir, 'files')).filter((f) => f.endsWith('.part')));
          const answer = await put(multipart(boundary, parts, truncate), type.endsWith('=') ? `${type}${boundary}` : type);
          const what = JSON.stringify({ boundary, parts: parts.map((p) => ({ ...p, body: p.body.length > 80 ? `${p.body.slice(0, 20)}…(${p.body.length})` : p.body })), truncate, type });
          const codes = expectDocumented(answer, what);
          if (answer.status === 200 && codes.length === 0) stored++;
          // A request's staging files are gone once it is answered (allowing a moment for cleanup).
          const left = () => files(join(t.dataDir, 'files')).filter((f) => f.endsWith('.part') && !partsBefore.has(f));
          for (let i = 0; i < 20 && left().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
          expect(left(), what).toEqual([]);
        },
      ),
      { numRuns: runs(150, 2000) },
    );
    // Only successful creates may have added files (each at most one blob).
    expect(files(join(t.dataDir, 'files')).filter((f) => !f.startsWith('.')).length - before).toBeLessThanOrEqual(stored);
  });

  it('leaves no staging file when the body ends inside the closing boundary (found by the fuzzer)', async () => {
    const boundary = ",'/.:8";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="cover"; filename="a"\r\n\r\nq\r\n--${boundary}-`;
    // A race (the staging file still being opened when the body fails), so many tries, some at once.
    for (let i = 0; i < 40; i++) {
      const answers = await Promise.all(Array.from({ length: 5 }, () => put(body, `multipart/form-data; boundary=${boundary}`)));
      for (const answer of answers) expectDocumented(answer, 'cut closing boundary');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(files(join(t.dataDir, 'files')).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('refuses the wrong media types on each method', async () => {
    expectDocumented(await put('{"a":1}', 'application/json'), 'json on PUT');
    const res = await t.app.inject({ method: 'POST', url: '/jql', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--\r\n' });
    expectDocumented({ status: res.statusCode, body: parseBody(res.body) }, 'multipart on POST');
  });
});
