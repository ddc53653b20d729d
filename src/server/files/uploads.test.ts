import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, startFileServer, VAULT_WORKSPACE, type FileServer } from '../testing/file-server.ts';
import { writeWorkspace } from '../testing/fixture.ts';

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const create = (data: Record<string, unknown>, mapping: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  __meta__: { namespace: 'vault.Doc', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: mapping }, ...extra },
  ...data,
});

describe('PUT /jql multipart uploads', () => {
  let s: FileServer;
  beforeAll(async () => {
    s = await startFileServer({ workspace: writeWorkspace(VAULT_WORKSPACE) });
  });
  afterAll(() => s.close());

  const expectNothingStored = (docsBefore: number) => {
    expect(s.rows('SELECT COUNT(*) AS n FROM "vault.Doc"')[0].n).toBe(docsBefore);
    expect(s.rows('SELECT COUNT(*) AS n FROM jql_files')[0].n).toBe(filesBefore);
    expect(s.stored().temps).toEqual([]);
    expect(s.stored().blobs.sort()).toEqual(blobsBefore);
  };
  let filesBefore = 0;
  let blobsBefore: string[] = [];
  const snapshot = () => {
    filesBefore = s.rows('SELECT COUNT(*) AS n FROM jql_files')[0].n;
    blobsBefore = s.stored().blobs.sort();
    return s.rows('SELECT COUNT(*) AS n FROM "vault.Doc"')[0].n as number;
  };

  it('creates a record with its file, answering the file value and storing the bytes under their SHA-256', async () => {
    const bytes = 'first file body';
    const res = await s.put(form(create({ title: 'One' }, { file: 'upload' }, { return: { title: null, file: null } }), { upload: { data: bytes, name: 'one.txt', type: 'text/plain' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const file = res.body.__payload__.file;
    expect(Object.keys(res.body.__payload__).sort()).toEqual(['file', 'id', 'title']);
    expect(file).toMatchObject({ name: 'one.txt', size: bytes.length, content_type: 'text/plain', sha256: sha256(bytes) });
    expect(file.url).toMatch(/^\/jql\/files\/[A-Za-z0-9_-]+$/);
    const hash = sha256(bytes);
    expect(readFileSync(join(s.dataDir, 'files', hash.slice(0, 2), hash.slice(2, 4), hash), 'utf8')).toBe(bytes);
    expect(s.rows('SELECT name, size, sha256 FROM jql_files')).toEqual([{ name: 'one.txt', size: bytes.length, sha256: hash }]);
    expect(s.stored().temps).toEqual([]);
  });

  it('takes the query as a file part, and updates a file with return', async () => {
    const created = await s.put(form(create({ title: 'Two' }, { file: 'a' }), { a: { data: 'version one' } }, true));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.__payload__.file.content_type).toBe('application/octet-stream');
    const id = created.body.__payload__.id;
    const update = {
      __meta__: { namespace: 'vault.Doc', intent: 'update', uniqueObject: { id }, sideEffects: { multipartFormUpload: true, fileFieldMapping: { cover: 'b' } }, return: { cover: null } },
      title: 'Two (updated)',
    };
    const updated = await s.put(form(update, { b: { data: 'a cover', name: 'cover.png', type: 'image/png' } }, true));
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(Object.keys(updated.body.__payload__).sort()).toEqual(['cover', 'id']);
    expect(updated.body.__payload__.cover).toMatchObject({ name: 'cover.png', size: 7, content_type: 'image/png', sha256: sha256('a cover') });
    expect(updated.body.__payload__.cover.url).toMatch(/^\/jql\/files\/[\w-]+\?expires=\d+&signature=[\w-]+$/);
    const read = await s.post({ __meta__: { namespace: 'vault.Doc', intent: 'retrieveOne', uniqueObject: { id } }, title: null, file: null });
    expect(read.body.__payload__).toMatchObject({ title: 'Two (updated)', file: { sha256: sha256('version one') } });
  });

  it('takes the query as a text field typed application/json', async () => {
    const query = JSON.stringify(create({ title: 'Typed' }, { file: 'f' }));
    const raw = ['--xx', 'Content-Disposition: form-data; name="query"', 'Content-Type: application/json', '', query, '--xx', 'Content-Disposition: form-data; name="f"; filename="t.txt"', '', 'typed', '--xx--', ''].join('\r\n');
    const res = await fetch(`${s.url}/jql`, { method: 'PUT', headers: { 'content-type': 'multipart/form-data; boundary=xx' }, body: raw });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).__payload__).toMatchObject({ title: 'Typed', file: { name: 't.txt', sha256: sha256('typed') } });
  });

  it('stores the same bytes once, with one metadata row per upload', async () => {
    const bytes = 'the same bytes, twice';
    const first = await s.put(form(create({ title: 'Same 1' }, { file: 'f' }), { f: { data: bytes, name: 'a.txt' } }));
    const second = await s.put(form(create({ title: 'Same 2' }, { file: 'f' }), { f: { data: bytes, name: 'b.txt' } }));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body.__payload__.file.url).not.toBe(second.body.__payload__.file.url);
    expect(s.rows('SELECT name FROM jql_files WHERE sha256 = ? ORDER BY name', sha256(bytes))).toEqual([{ name: 'a.txt' }, { name: 'b.txt' }]);
    expect(s.stored().blobs.filter((path) => path.endsWith(sha256(bytes)))).toHaveLength(1);
  });

  it('answers 413 for a 100 KB file against a 64 KB limit and leaves nothing behind', async () => {
    const before = snapshot();
    const big = new Uint8Array(100 * 1024).fill(7);
    const res = await s.put(form(create({ title: 'Too big' }, { cover: 'small', file: 'big' }), { small: { data: 'fine' }, big: { data: big } }));
    expect(res.status).toBe(413);
    expect(res.body.__errors__[0]).toMatchObject({ code: 'payload_too_large', field: 'big' });
    expectNothingStored(before);
    // A file exactly at the limit is accepted.
    const atLimit = await s.put(form(create({ title: 'At limit' }, { file: 'f' }), { f: { data: new Uint8Array(64 * 1024).fill(1) } }));
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(200);
  });

  it('refuses a missing mapped part, a mapping to a non-file or unknown field, and an unknown part, storing nothing', async () => {
    const before = snapshot();
    const missing = await s.put(form(create({ title: 'x' }, { file: 'f', cover: 'absent' }), { f: { data: 'orphan-to-be' } }));
    expect(missing.status).toBe(422);
    expect(missing.body.__errors__).toEqual([expect.objectContaining({ code: 'validation_error', field: 'cover', message: expect.stringContaining('"absent"') })]);
    const notFile = await s.put(form(create({ title: 'x' }, { title: 'f' }), { f: { data: 'orphan-to-be' } }));
    expect(notFile.status).toBe(422);
    expect(notFile.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'title', message: expect.stringContaining('not a file field') });
    const unknownField = await s.put(form(create({ title: 'x' }, { nope: 'f' }), { f: { data: 'orphan-to-be' } }));
    expect(unknownField.status).toBe(422);
    expect(unknownField.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'nope' });
    const unknownPart = await s.put(form(create({ title: 'x' }, { file: 'f' }), { f: { data: 'orphan-to-be' }, stray: { data: 'stray' } }));
    expect(unknownPart.status).toBe(422);
    expect(unknownPart.body.__errors__).toEqual([expect.objectContaining({ code: 'validation_error', field: 'stray' })]);
    const textPart = new FormData();
    textPart.append('query', JSON.stringify(create({ title: 'x' }, { file: 'f' })));
    textPart.append('f', 'a text field, not a file');
    const text = await s.put(textPart);
    expect(text.status).toBe(422);
    expect(text.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'f' });
    expectNothingStored(before);
  });

  it('leaves no record, row or blob when the record itself fails', async () => {
    await s.put(form(create({ title: 'Coded', code: 'K1' }, { file: 'f' }), { f: { data: 'kept' } }));
    const before = snapshot();
    const invalid = await s.put(form(create({ title: 'x'.repeat(51) }, { file: 'f' }), { f: { data: 'never stored 1' } }));
    expect(invalid.status).toBe(422);
    const conflict = await s.put(form(create({ title: 'Dup', code: 'K1' }, { file: 'f' }), { f: { data: 'never stored 2' } }));
    expect(conflict.status).toBe(409);
    const badJson = await s.put(form('{"__meta__": ', { f: { data: 'never stored 3' } }));
    expect(badJson.status).toBe(400);
    expect(badJson.body.__errors__[0].code).toBe('invalid_json');
    // A text field typed application/json is parsed by the multipart plugin; bad JSON is still invalid_json.
    const raw = [
      '--b0undary',
      'Content-Disposition: form-data; name="query"',
      'Content-Type: application/json',
      '',
      '{"__meta__": ',
      '--b0undary',
      'Content-Disposition: form-data; name="f"; filename="f.bin"',
      '',
      'never stored 5',
      '--b0undary--',
      '',
    ].join('\r\n');
    const typed = await fetch(`${s.url}/jql`, { method: 'PUT', headers: { 'content-type': 'multipart/form-data; boundary=b0undary' }, body: raw });
    expect([typed.status, ((await typed.json()) as any).__errors__[0].code]).toEqual([400, 'invalid_json']);
    const atomic = {
      __root_meta__: { atomic: true },
      one: create({ title: 'Atomic 1' }, { file: 'f' }),
      two: { __meta__: { namespace: 'vault.Doc', intent: 'create' }, title: 'Dup', code: 'K1' },
    };
    const rolledBack = await s.put(form(atomic, { f: { data: 'never stored 4' } }));
    expect(rolledBack.status).toBe(200);
    expect(rolledBack.body.__payload__.one.errors[0].code).toBe('rolled_back');
    expectNothingStored(before);
  });

  it('keeps the blob of bytes that a failing and a succeeding request upload at the same time', async () => {
    const bytes = 'raced bytes';
    const [failed, succeeded] = await Promise.all([
      s.put(form(create({ title: 'x'.repeat(51) }, { file: 'f' }), { f: { data: bytes } })),
      s.put(form(create({ title: 'Raced' }, { file: 'f' }), { f: { data: bytes } })),
    ]);
    expect([failed.status, succeeded.status]).toEqual([422, 200]);
    expect(s.rows('SELECT COUNT(*) AS n FROM jql_files WHERE sha256 = ?', sha256(bytes))[0].n).toBe(1);
    expect(await (await s.get(succeeded.body.__payload__.file.url)).text()).toBe(bytes);
  });

  it('keeps JSON clients from setting file fields, even with the id of a stored file', async () => {
    const [{ id }] = s.rows('SELECT id FROM jql_files LIMIT 1');
    const forged = await s.post({ __meta__: { namespace: 'vault.Doc', intent: 'create' }, title: 'Forged', file: id });
    expect(forged.status).toBe(422);
    expect(forged.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'file', message: expect.stringContaining('PUT /jql') });
    const mapped = await s.post(create({ title: 'Forged' }, { file: 'f' }));
    expect(mapped.status).toBe(422);
    expect(mapped.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'file' });
  });

  it('answers unsupported_media_type and invalid_request for the wrong kind of request', async () => {
    const json = await fetch(`${s.url}/jql`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(415);
    expect(((await json.json()) as any).__errors__[0].code).toBe('unsupported_media_type');
    const multipartPost = await fetch(`${s.url}/jql`, { method: 'POST', body: form(create({ title: 'x' }, {})) });
    expect(multipartPost.status).toBe(415);
    const noQuery = new FormData();
    noQuery.append('f', new Blob(['x']), 'x.txt');
    const res = await s.put(noQuery);
    expect(res.status).toBe(400);
    expect(res.body.__errors__[0]).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('"query"') });
    const twice = form(create({ title: 'x' }, {}));
    twice.append('query', '{}');
    expect((await s.put(twice)).status).toBe(400);
    expect(s.stored().temps).toEqual([]);
  });

  it('keeps the client file name as metadata only, never as a path', async () => {
    const res = await s.put(form(create({ title: 'Path' }, { file: 'f' }), { f: { data: 'not a path', name: '../../../../tmp/evil.sh' } }));
    expect(res.status).toBe(200);
    // Busboy keeps the last segment; whatever the name, the bytes live under their hash.
    expect(res.body.__payload__.file.name).toBe('evil.sh');
    expect(s.stored().blobs.every((path) => /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(path))).toBe(true);
    const file = await s.get(res.body.__payload__.file.url);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="evil.sh"; filename*=UTF-8''evil.sh`);
    const odd = await s.put(form(create({ title: 'Odd' }, { file: 'f' }), { f: { data: '%PDF', name: 'résumé; final.pdf', type: 'application/pdf' } }));
    expect(odd.body.__payload__.file.name).toBe('résumé; final.pdf');
    const pdf = await s.get(odd.body.__payload__.file.url);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`inline; filename="r_sum_; final.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%3B%20final.pdf`);
  });

  it('answers with the flat envelope and diagnostics like POST', async () => {
    const res = await s.put(form(create({ title: 'Flat' }, { file: 'f' }), { f: { data: 'flat' } }), undefined, 'envelope=flat&query_info_level=1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'OK', data: { title: 'Flat' }, system_info: { queries: expect.any(Number) } });
  });
});
