import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, startFileServer, type FileServer } from '../testing/file-server.ts';
import { buildZip, manifestXml, type ZipEntry } from '../testing/zip-writer.ts';

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const controller = (namespace: string, intent: string, args: Record<string, unknown> = {}) => ({
  __meta__: { namespace, intent, schema: 'controller', sideEffects: { multipartFormUpload: true } },
  ...args,
});

describe('demo upload controllers', () => {
  let s: FileServer;
  let viewer: string;
  let agent: string;
  beforeAll(async () => {
    s = await startFileServer();
    [viewer, agent] = await Promise.all([s.login('viewer', 'viewer-demo'), s.login('agent', 'agent-demo')]);
  });
  afterAll(() => s.close());

  const snapshot = () => ({ rows: s.rows('SELECT COUNT(*) AS n FROM jql_files')[0].n, blobs: s.stored().blobs.sort() });
  const expectUnchanged = (before: ReturnType<typeof snapshot>) => {
    expect(snapshot()).toEqual(before);
    expect(s.stored().temps).toEqual([]);
  };

  it('objects.Document.upload stores the file part as a document of the object', async () => {
    const res = await s.put(form(controller('objects.Document', 'upload', { object: 1 }), { file: { data: 'manual', name: 'manual.txt', type: 'text/plain' } }), viewer);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.__intent__).toBe('upload');
    expect(res.body.__payload__).toMatchObject({ object: 1, name: 'manual.txt', file: { name: 'manual.txt', size: 6, sha256: sha256('manual') } });
    const bytes = await s.get(res.body.__payload__.file.url, { authorization: `Bearer ${viewer}` });
    expect(await bytes.text()).toBe('manual');
    expect((await s.get(res.body.__payload__.file.url)).status).toBe(401);
  });

  it('objects.Document.upload refuses a missing part, an unknown part and an unknown object, storing nothing', async () => {
    const before = snapshot();
    const missing = await s.put(form(controller('objects.Document', 'upload', { object: 1 })), viewer);
    expect(missing.status).toBe(422);
    expect(missing.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'file' });
    const stray = await s.put(form(controller('objects.Document', 'upload', { object: 1 }), { file: { data: 'a' }, extra: { data: 'b' } }), viewer);
    expect(stray.status).toBe(422);
    expect(stray.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'extra' });
    const unknown = await s.put(form(controller('objects.Document', 'upload', { object: 9999 }), { file: { data: 'never kept' } }), viewer);
    expect(unknown.status).toBe(422);
    expect(unknown.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'object' });
    expect((await s.put(form(controller('objects.Document', 'upload', { object: 1 }), { file: { data: 'x' } }))).status).toBe(401);
    expectUnchanged(before);
  });

  it('tickets.Document.upload stores a document of the ticket, titled after the file unless given a title', async () => {
    const res = await s.put(form(controller('tickets.Document', 'upload', { ticket: 1 }), { file: { data: 'log output', name: 'server.log' } }), viewer);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.__payload__).toMatchObject({ ticket: 1, title: 'server.log', file: { name: 'server.log', size: 10 } });
    const titled = await s.put(form(controller('tickets.Document', 'upload', { ticket: 1, title: 'Screenshot' }), { file: { data: 'png', name: 'a.png' } }), viewer);
    expect(titled.body.__payload__.title).toBe('Screenshot');
    const ticket = await s.post({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieveOne', uniqueObject: { id: 1 } }, documents: { title: null } });
    expect(ticket.body.__payload__.documents.map((d: { title: string }) => d.title).sort()).toEqual(['Screenshot', 'server.log']);
  });

  it('filemanager.File.appendFiles stores every part, whatever its name, in one transaction', async () => {
    const res = await s.put(
      form(controller('filemanager.File', 'appendFiles'), { one: { data: '1', name: 'one.txt' }, two: { data: '22', name: 'two.txt' }, three: { data: '333', name: 'three.txt' } }),
      viewer,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.__payload__.map((f: { name: string; size: number }) => [f.name, f.size])).toEqual([
      ['one.txt', 1],
      ['two.txt', 2],
      ['three.txt', 3],
    ]);
    expect(res.body.__payload__[2].file).toMatchObject({ name: 'three.txt', size: 3, sha256: sha256('333') });
    const none = await s.put(form(controller('filemanager.File', 'appendFiles')), viewer);
    expect(none.status).toBe(422);
  });

  it('documents.Folder.createFolderWithDocuments takes file parts, all or nothing', async () => {
    const res = await s.put(
      form(controller('documents.Folder', 'createFolderWithDocuments', { name: 'Uploads', documents: ['Index'] }), {
        a: { data: 'alpha', name: 'alpha.md' },
        b: { data: 'beta', name: 'beta.md' },
      }),
      viewer,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const docs = res.body.__payload__.documents;
    expect(docs.map((d: { name: string }) => d.name)).toEqual(['Index', 'alpha.md', 'beta.md']);
    expect(docs[0].file).toBeNull();
    expect(docs[2].file).toMatchObject({ name: 'beta.md', sha256: sha256('beta') });
    const before = snapshot();
    const dup = await s.put(form(controller('documents.Folder', 'createFolderWithDocuments', { name: 'Uploads' }), { c: { data: 'gamma, never kept' } }), viewer);
    expect(dup.status).toBe(409);
    expectUnchanged(before);
    // The JSON form still works, and addDocument takes no parts.
    expect((await s.post(controller('documents.Folder', 'createFolderWithDocuments', { name: 'Plain', documents: ['x'] }), viewer)).status).toBe(200);
    expect((await s.put(form(controller('documents.Folder', 'addDocument', { folder: 1, name: 'n' }), { a: { data: 'x' } }), viewer)).status).toBe(422);
  });

  it('system.Schema.describe lists the file parts of the upload intents', async () => {
    const res = await s.post({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } });
    const { apps } = res.body.__payload__;
    expect(apps.objects.controllers.Document).toMatchObject({ intents: ['upload'], files: { upload: ['file'] } });
    expect(apps.tickets.controllers.Document.files).toEqual({ upload: ['file'] });
    expect(apps.filemanager.controllers.File.files).toEqual({ appendFiles: ['*'] });
    expect(apps.documents.controllers.Folder.files).toEqual({ createFolderWithDocuments: ['*'] });
    expect(apps.learning.controllers.LearningContentRegistration).toMatchObject({ intents: ['uploadPackage'], files: { uploadPackage: ['package'] } });
  });

  describe('learning.LearningContentRegistration.uploadPackage', () => {
    const upload = (zip: Buffer, args: Record<string, unknown> = {}, token = agent) =>
      s.put(form(controller('learning.LearningContentRegistration', 'uploadPackage', args), { package: { data: zip, name: 'course.zip', type: 'application/zip' } }), token);
    const course: ZipEntry[] = [
      { name: 'imsmanifest.xml', data: manifestXml('Fire safety &amp; you', 'lesson/index.html'), deflate: true },
      { name: 'lesson/index.html', data: '<html>lesson</html>', deflate: true },
      { name: 'lesson/style.css', data: 'body{}' },
    ];

    it('stores the package and registers its manifest title and launch file', async () => {
      const zip = await buildZip(course);
      const res = await upload(zip);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.__payload__).toMatchObject({ title: 'Fire safety & you', launch_file: 'lesson/index.html', status: 'ready' });
      expect(res.body.__payload__.package).toMatchObject({ name: 'course.zip', size: zip.length, content_type: 'application/zip', sha256: sha256(zip) });
      expect(res.body.__payload__.package.url).toContain('signature=');
      expect(res.body.__extras__).toMatchObject({ entries: 3 });
      const bytes = Buffer.from(await (await s.get(res.body.__payload__.package.url)).arrayBuffer());
      expect(bytes.equals(zip)).toBe(true);
      const titled = await upload(await buildZip(course), { title: 'My own title' });
      expect(titled.body.__payload__.title).toBe('My own title');
    });

    it('is for agents and admins', async () => {
      expect((await upload(await buildZip(course), {}, viewer)).status).toBe(403);
    });

    const refusals: Array<[string, () => Buffer | Promise<Buffer>, RegExp]> = [
      ['an archive without a manifest', () => buildZip([{ name: 'index.html', data: 'x' }]), /no imsmanifest\.xml/],
      ['a file that is not a zip', () => Buffer.from('plain text, not a zip archive'), /not a readable zip/],
      ['an entry climbing out with ..', () => buildZip([...course, { name: 'lesson/../../evil.sh', data: 'x' }]), /climbs out of the package/],
      ['an entry with an absolute path', () => buildZip([...course, { name: '/etc/cron.d/evil', data: 'x' }]), /absolute path/],
      ['an entry with a drive letter', () => buildZip([...course, { name: 'C:/evil.bat', data: 'x' }]), /absolute path/],
      ['a manifest naming a launch file the package lacks', () => buildZip([{ name: 'imsmanifest.xml', data: manifestXml('T', 'missing.html') }]), /"missing\.html".*not in the package/],
      ['a manifest without a resource href', () => buildZip([{ name: 'imsmanifest.xml', data: '<manifest><organizations><organization><title>T</title></organization></organizations></manifest>' }]), /no launch file/],
      ['a highly compressed entry (zip bomb)', () => buildZip([...course, { name: 'zeros.bin', data: Buffer.alloc(20 * 1024 * 1024), deflate: true }]), /inflates more than 100 times.*zip bomb/],
      // Incompressible bytes under a lying size: each entry within the ratio, together over 512 MiB.
      ['entries claiming more than 512 MiB inflated', () => buildZip([...course, ...[1, 2].map((n) => ({ name: `big${n}.bin`, data: randomBytes(3 * 1024 * 1024), deflate: true, declaredSize: 280 * 1024 * 1024 }))]), /inflates to more than .* zip bomb/],
      ['more than 10,000 entries', () => buildZip([...course, ...Array.from({ length: 10_000 }, (_, i) => ({ name: `f/${i}.txt`, data: '' }))]), /10003 entries; at most 10000/],
    ];
    for (const [what, zip, message] of refusals) {
      it(`refuses ${what} with a validation error and stores nothing`, async () => {
        const before = snapshot();
        const registrations = s.rows('SELECT COUNT(*) AS n FROM "learning.LearningContentRegistration"')[0].n;
        const res = await upload(await zip());
        expect(res.status, JSON.stringify(res.body)).toBe(422);
        expect(res.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'package', message: expect.stringMatching(message) });
        expect(s.rows('SELECT COUNT(*) AS n FROM "learning.LearningContentRegistration"')[0].n).toBe(registrations);
        expectUnchanged(before);
      });
    }
  });
});
