import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, startFileServer, VAULT_WORKSPACE, type FileServer } from '../testing/file-server.ts';
import { writeWorkspace } from '../testing/fixture.ts';
import { signatureOf } from './signed-url.ts';

const SECRET = 'file-route-test-secret';
const BYTES = '0123456789abcdefghij';

describe('GET /jql/files/:id', () => {
  let s: FileServer;
  let admin: string;
  let manager: string;
  let agent: string;
  let nobody: string;
  let agentId: number;
  let docUrl: string;
  let coverUrl: string;
  let lockedUrls: { mine: string; theirs: string };

  beforeAll(async () => {
    s = await startFileServer({ workspace: writeWorkspace(VAULT_WORKSPACE), env: { JQL_ADMIN: 'root:root-password-1', JQL_SECRET: SECRET } });
    admin = await s.login('root', 'root-password-1');
    const users: Record<string, number> = {};
    for (const [username, roles] of [
      ['manny', ['manager']],
      ['agnes', ['agent']],
      ['vic', []],
    ] as const) {
      const res = await s.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username, password: `${username}-password-1`, roles }, admin);
      users[username] = res.body.__payload__.id;
    }
    agentId = users.agnes as number;
    [manager, agent, nobody] = await Promise.all(['manny', 'agnes', 'vic'].map((name) => s.login(name, `${name}-password-1`)));
    const doc = await s.put(
      form(
        { __meta__: { namespace: 'vault.Doc', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: 'f', cover: 'c' } } }, title: 'Doc' },
        { f: { data: BYTES, name: 'plain.txt', type: 'text/plain' }, c: { data: 'cover bytes', name: 'cover.png', type: 'image/png' } },
      ),
    );
    docUrl = doc.body.__payload__.file.url;
    coverUrl = doc.body.__payload__.cover.url;
    const locked = async (owner: number | null, data: string) => {
      const res = await s.put(
        form({ __meta__: { namespace: 'vault.Locked', intent: 'create', sideEffects: { fileFieldMapping: { file: 'f' } }, return: { id: null } }, owner }, { f: { data } }),
        admin,
      );
      return s.rows('SELECT id FROM jql_files WHERE id IN (SELECT file FROM "vault.Locked" WHERE id = ?)', res.body.__payload__.id)[0].id as string;
    };
    lockedUrls = { mine: `/jql/files/${await locked(agentId, 'agent file')}`, theirs: `/jql/files/${await locked(null, 'other file')}` };
  });
  afterAll(() => s.close());

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  it('serves an unprotected file with its type, a safe name and its length', async () => {
    const res = await s.get(docUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.get('content-length')).toBe(String(BYTES.length));
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="plain.txt"; filename*=UTF-8''plain.txt`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(await res.text()).toBe(BYTES);
  });

  it('needs read permission on the record: 401 anonymous, 403 without the role, 404 outside the row scope', async () => {
    expect((await s.get(lockedUrls.mine)).status).toBe(401);
    const forbidden = await s.get(lockedUrls.mine, auth(nobody));
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as any).__errors__[0].code).toBe('forbidden');
    expect((await s.get(lockedUrls.theirs, auth(agent))).status).toBe(404);
    const mine = await s.get(lockedUrls.mine, auth(agent));
    expect(mine.status).toBe(200);
    expect(await mine.text()).toBe('agent file');
    expect(await (await s.get(lockedUrls.theirs, auth(manager))).text()).toBe('other file');
    expect((await s.get('/jql/files/unknownid', auth(manager))).status).toBe(404);
    expect((await s.get(lockedUrls.mine, auth('not-a-token'))).status).toBe(401);
  });

  it('serves a protected file only with a valid, unexpired signature', async () => {
    expect(coverUrl).toMatch(/\?expires=\d+&signature=/);
    const ok = await s.get(coverUrl);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('cover bytes');
    const url = new URL(coverUrl, 'http://x');
    const id = url.pathname.split('/').pop() as string;
    const signature = url.searchParams.get('signature') as string;
    const expires = Number(url.searchParams.get('expires'));
    const refused = async (path: string) => {
      const res = await s.get(path, auth(admin));
      const text = await res.text();
      expect(res.status, path).toBe(403);
      expect(text).not.toContain('cover bytes');
      expect(JSON.parse(text).__errors__[0].code).toBe('forbidden');
    };
    const tampered = `${signature.slice(0, 5)}${signature[5] === 'x' ? 'y' : 'x'}${signature.slice(6)}`;
    await refused(`/jql/files/${id}?expires=${expires}&signature=${tampered}`);
    await refused(`/jql/files/${id}?expires=${expires + 3600}&signature=${signature}`);
    await refused(`/jql/files/${id}`);
    await refused(`/jql/files/${id}?expires=${expires}`);
    const past = Math.floor(Date.now() / 1000) - 1;
    await refused(`/jql/files/${id}?expires=${past}&signature=${signatureOf(Buffer.from(SECRET), id, past)}`);
    // A signature is bound to its id.
    const other = new URL(docUrl, 'http://x').pathname;
    await refused(`${other}?expires=${expires}&signature=${signature}`);
  });

  it('answers single byte ranges with 206 and an unsatisfiable one with 416', async () => {
    const part = await s.get(docUrl, { range: 'bytes=2-5' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 2-5/${BYTES.length}`);
    expect(part.headers.get('content-length')).toBe('4');
    expect(await part.text()).toBe('2345');
    const suffix = await s.get(docUrl, { range: 'bytes=-3' });
    expect(await suffix.text()).toBe('hij');
    const open = await s.get(coverUrl, { range: 'bytes=6-' });
    expect([open.status, await open.text()]).toEqual([206, 'bytes']);
    const beyond = await s.get(docUrl, { range: `bytes=${BYTES.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${BYTES.length}`);
    expect(await beyond.text()).toBe('');
    const etag = (await s.get(docUrl)).headers.get('etag') as string;
    expect((await s.get(docUrl, { range: 'bytes=0-1', 'if-range': etag })).status).toBe(206);
    const stale = await s.get(docUrl, { range: 'bytes=0-1', 'if-range': '"old"' });
    expect([stale.status, await stale.text()]).toEqual([200, BYTES]);
  });
});
