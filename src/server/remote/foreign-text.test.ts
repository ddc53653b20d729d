/**
 * Issue 32.9: text from a source or a file reaches the terminal with its control characters escaped,
 * a URL's `user:password@` is never echoed, and `__proto__` names are refused instead of vanishing.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { escapeControl } from '../../shared/terminal-text.ts';
import { DescribeShapeError, workspaceFromDescribe } from '../clone/workspace-from-describe.ts';
import { runCli } from '../testing/cli-child.ts';
import { tempDir } from '../testing/fixture.ts';

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

describe('foreign text on the command line', () => {
  it('escapes control characters', () => {
    expect(escapeControl('ok\n\u001b]0;title\u0007 \u009b2J\r done')).toBe('ok\\x0a\\x1b]0;title\\x07 \\x9b2J\\x0d done');
    expect(escapeControl('plain text, ü and €')).toBe('plain text, ü and €');
  });

  it("prints a source's error message with its control characters escaped, on one line", async () => {
    const fake = 'pwned\n\u001b]0;title\u0007\u001b[2Jjql-console: copied 10 records';
    server = createServer((request, response) => {
      request.resume();
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ __errors__: [{ code: 'bad', message: fake }] }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const outcome = await runCli(['workspace', 'from-describe', `http://127.0.0.1:${port}`]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(outcome.stderr.split('\n')).toHaveLength(1);
    expect(outcome.stderr).toContain('pwned\\x0a\\x1b]0;title\\x07\\x1b[2Jjql-console: copied 10 records');
  }, 30_000);

  it('never echoes the password of a URL, whether it parses or not', async () => {
    const badPort = await runCli(['workspace', 'from-describe', 'http://me:hunter2@127.0.0.1:99999']);
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toContain('"http://…@127.0.0.1:99999" is not a URL');
    const run = await runCli(['run', tempDir('jql-url-'), '--server', 'http://me:hunter2@127.0.0.1:1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the URL holds credentials');
    for (const outcome of [badPort, run]) expect(outcome.stderr + outcome.stdout).not.toContain('hunter2');
  }, 30_000);

  it('refuses __proto__ app, model and field names from a source instead of dropping them', () => {
    const field = '{"type": "string"}';
    for (const text of [
      `{"apps": {"__proto__": {"models": {"M": {"fields": {"title": ${field}}}}}}}`,
      `{"apps": {"a": {"models": {"__proto__": {"fields": {"title": ${field}}}}}}}`,
      `{"apps": {"a": {"models": {"M": {"fields": {"__proto__": ${field}}}}}}}`,
    ]) {
      expect(() => workspaceFromDescribe(JSON.parse(text), 'http://127.0.0.1:9'), text).toThrow(DescribeShapeError);
      expect(() => workspaceFromDescribe(JSON.parse(text), 'http://127.0.0.1:9'), text).toThrow(/__proto__.*a name no workspace can hold/);
    }
  });
});
