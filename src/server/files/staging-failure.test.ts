// A failure of the server's own disk while an upload is staged (docs/protocol.md "Errors", "Multipart uploads") is the
// server's: internal_error, logged, and neither the file system's message nor a path of the data
// directory reaches the client. Only a body the client got wrong is a 400.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { form, startFileServer, VAULT_WORKSPACE, type FileServer } from '../testing/file-server.ts';
import { writeWorkspace } from '../testing/fixture.ts';

describe('staging an upload when the disk fails', () => {
  let s: FileServer;
  beforeAll(async () => {
    s = await startFileServer({ workspace: writeWorkspace(VAULT_WORKSPACE) });
  });
  afterAll(() => s.close());

  const upload = () =>
    s.put(form({ __meta__: { namespace: 'vault.Doc', intent: 'create', sideEffects: { fileFieldMapping: { file: 'f' } } }, title: 'Doc' }, { f: { data: 'bytes' } }));

  it('answers internal_error, logs the cause and echoes no path; a malformed body stays a 400', async () => {
    const tmp = join(s.dataDir, 'files', 'tmp');
    mkdirSync(join(s.dataDir, 'files'), { recursive: true });
    rmSync(tmp, { recursive: true, force: true });
    // The temp folder cannot be made: a file holds its name.
    writeFileSync(tmp, 'not a folder');
    const logged = vi.spyOn(s.server.app.log, 'error');
    try {
      const res = await upload();
      expect(res.status).toBe(500);
      expect(res.body.__errors__).toEqual([{ code: 'internal_error', message: expect.any(String) }]);
      const text = JSON.stringify(res.body);
      for (const secret of [s.dataDir, 'EEXIST', 'ENOTDIR', 'mkdir', 'tmp']) expect(text).not.toContain(secret);
      expect(logged).toHaveBeenCalled();
      expect(String((logged.mock.calls[0]![0] as { err: Error }).err)).toMatch(/EEXIST|ENOTDIR/);
      expect(s.rows('SELECT count(*) AS n FROM "vault.Doc"')[0].n).toBe(0);
    } finally {
      logged.mockRestore();
      rmSync(tmp, { force: true });
    }
    const cut = await fetch(`${s.url}/jql`, {
      method: 'PUT',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="query"\r\n\r\n{}\r\n--xyz\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\nunterminated',
    });
    expect(cut.status).toBe(400);
    expect(((await cut.json()) as any).__errors__[0].code).toBe('invalid_request');
    expect((await upload()).status).toBe(200);
  });
});
