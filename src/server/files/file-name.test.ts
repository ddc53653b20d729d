// Issue 21 point 8 (docs/protocol.md "File URLs"): a stored file name keeps no Unicode control (Cc) or format (Cf)
// character, so U+202E cannot make `invoice\u202Efdp.exe` show as `invoiceexe.pdf`.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, startFileServer, VAULT_WORKSPACE, type FileServer } from '../testing/file-server.ts';
import { writeWorkspace } from '../testing/fixture.ts';
import { cleanFileName } from './file-name.ts';

let s: FileServer;
let workspace: string;
beforeAll(async () => {
  workspace = writeWorkspace(VAULT_WORKSPACE);
  s = await startFileServer({ workspace });
});
afterAll(async () => {
  await s.close();
  rmSync(dirname(workspace), { recursive: true, force: true });
});

describe('stored file names', () => {
  it('are stored and answered without bidi overrides, zero-width or control characters', async () => {
    const query = { __meta__: { namespace: 'vault.Doc', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: 'f' } } }, title: 'Invoice' };
    const answer = await s.put(form(query, { f: { data: 'MZ not really', name: 'invoice\u202Efdp.exe', type: 'application/pdf' } }));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.__payload__.file.name).toBe('invoicefdp.exe');
    expect(s.rows('SELECT name FROM jql_files').map((row) => row.name)).toEqual(['invoicefdp.exe']);
    const download = await s.get(answer.body.__payload__.file.url);
    expect(download.headers.get('content-disposition')).not.toMatch(/%E2%80%AE|\u202E/);
  });

  it('lose every Cc and Cf character, and nothing else', () => {
    expect(cleanFileName('a\u200Bb\u200Dc\u2066d\u2069e\uFEFFf\u00ADg\u0007h.txt')).toBe('abcdefgh.txt');
    expect(cleanFileName('résumé 2024 (final).pdf')).toBe('résumé 2024 (final).pdf');
    expect(cleanFileName('\u202E')).toBe('file');
  });
});
