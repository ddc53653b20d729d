import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, VAULT_WORKSPACE } from '../testing/file-server.ts';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';

/**
 * The server's real log output (pino on stdout at `info`, so request lines too) while files are
 * uploaded, fetched, refused and fail to be served: no file URL, id or signature may appear in it.
 */
describe('file URLs in the log', () => {
  const dataDir = tempDir('jql-logs-');
  let output = '';
  let url = '';
  let child: ReturnType<typeof spawn>;

  beforeAll(async () => {
    const script = join(dataDir, 'serve.mjs');
    const index = new URL('../index.ts', import.meta.url).href;
    writeFileSync(
      script,
      `import { start } from ${JSON.stringify(index)};
       const server = await start({ workspace: ${JSON.stringify(writeWorkspace(VAULT_WORKSPACE))}, dataDir: ${JSON.stringify(join(dataDir, 'data'))}, port: 0, logger: true, env: {} });
       console.log('READY ' + server.url);`,
    );
    child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const collect = (chunk: Buffer) => (output += String(chunk));
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    url = await new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', () => {
        const match = /READY (\S+)/.exec(output);
        if (match) resolve(match[1] as string);
      });
      child.on('exit', () => reject(new Error(`server exited: ${output}`)));
    });
  });
  afterAll(() => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps URLs, ids and signatures out of request and error logs', async () => {
    const query = { __meta__: { namespace: 'vault.Doc', intent: 'create', sideEffects: { fileFieldMapping: { file: 'f', cover: 'c' } } }, title: 'Logged' };
    const put = await fetch(`${url}/jql`, { method: 'PUT', body: form(query, { f: { data: 'plain' }, c: { data: 'secret cover' } }) });
    const record = ((await put.json()) as any).__payload__;
    const coverUrl: string = record.cover.url;
    const fileUrl: string = record.file.url;
    expect((await fetch(`${url}${fileUrl}`)).status).toBe(200);
    expect((await fetch(`${url}${coverUrl}`)).status).toBe(200);
    expect((await fetch(`${url}${coverUrl.replace(/signature=(.)/, (_m, first: string) => `signature=${first === '_' ? '-' : '_'}`)}`)).status).toBe(403);
    // The cover's bytes become a directory: serving fails after the signature was accepted.
    const hash: string = record.cover.sha256;
    const blob = join(dataDir, 'data', 'files', hash.slice(0, 2), hash.slice(2, 4), hash);
    rmSync(blob);
    mkdirSync(blob);
    const failed = await fetch(`${url}${coverUrl}`);
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toContain('signature');
    // The log reaches the pipe after the answer: wait for the failure's line, then read everything.
    await expect.poll(() => output, { timeout: 5000 }).toContain('request failed');
    expect(output).toContain('"url":"/jql"');
    expect(output).toContain('"url":"/jql/files/:id"');
    const ids = [fileUrl, coverUrl].map((u) => new URL(u, url).pathname.split('/').pop() as string);
    for (const secret of ['signature', 'expires=', ...ids]) expect(output).not.toContain(secret);
  });
});
