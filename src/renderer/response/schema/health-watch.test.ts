// `/healthz` under `serve --watch`: the console reads the workspace digest and the last unapplied save,
// and a server that sends neither (or sends them malformed) is still a healthy JQL server.
import { describe, expect, it } from 'vitest';
import { readHealth } from './account-schema.ts';

describe('readHealth', () => {
  it('reads the workspace digest and the watch report', () => {
    const body = { status: 'ok', version: '1.2.0', workspace: { digest: 'ab12' }, watch: { error: 'The workspace was not applied.', preview: 'Migration preview (1 change):\n  LOSES   a.B.c' } };
    expect(readHealth(body)).toEqual({ status: 'ok', version: '1.2.0', digest: 'ab12', watch: { error: 'The workspace was not applied.', preview: 'Migration preview (1 change):\n  LOSES   a.B.c', changes: null, pendingDigest: null } });
  });

  it('reads the structured preview and the pending digest, sample values as cleaned JSON text', () => {
    const change = { kind: 'lossy', target: 'notes.Note.body', what: 'field removed: 2 rows hold values', rows: 2, sample: ['<b>one</b>', { x: 1 }, null, 'bad\u202Eevil'] };
    const health = readHealth({ version: '1', watch: { error: 'Not applied.', preview: 'text', changes: [change, { kind: 'additive', target: 'notes.Note.tag', what: 'new field' }], pendingDigest: 'ab'.repeat(32) } });
    expect(health?.watch?.pendingDigest).toBe('ab'.repeat(32));
    expect(health?.watch?.changes).toEqual([
      { kind: 'lossy', target: 'notes.Note.body', what: 'field removed: 2 rows hold values', rows: 2, sample: ['"<b>one</b>"', '{"x":1}', 'null', expect.not.stringContaining('\u202E')] },
      { kind: 'additive', target: 'notes.Note.tag', what: 'new field', rows: null, sample: [] },
    ]);
  });

  it('keeps the error and text preview of a server whose structured parts do not fit', () => {
    const health = readHealth({ version: '1', watch: { error: 'Not applied.', preview: 'text', changes: [{ kind: 'explode' }], pendingDigest: 'no spaces allowed' } });
    expect(health?.watch).toEqual({ error: 'Not applied.', preview: 'text', changes: null, pendingDigest: null });
  });

  it('reads a watching server with nothing to report', () => {
    expect(readHealth({ status: 'ok', version: '1', workspace: { digest: 'd' }, watch: { error: null, preview: null } })).toEqual({ status: 'ok', version: '1', digest: 'd', watch: { error: null, preview: null, changes: null, pendingDigest: null } });
  });

  it('takes a server without the extras, or with extras that do not fit, as healthy without them', () => {
    expect(readHealth({ status: 'ok', version: '1' })).toEqual({ status: 'ok', version: '1' });
    expect(readHealth({ version: '1', workspace: { digest: 7 }, watch: ['no'] })).toEqual({ status: 'ok', version: '1' });
  });

  it('cleans the server text it shows', () => {
    const health = readHealth({ version: '1', watch: { error: 'bad\u202Eevil', preview: null } });
    expect(health?.watch?.error).not.toContain('\u202E');
  });
});
