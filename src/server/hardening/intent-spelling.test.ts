// Issue 15.2: a controller's permissions must not depend on how the intent is spelled. The demo's
// `learning.LearningContentRegistration.uploadPackage` is for agents and admins; a viewer who re-cases
// the intent (`UploadPackage`, `upload_Package`) once reached the handler and stored the package.
// Over a real socket, with POST and PUT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, startFileServer, type FileServer } from '../testing/file-server.ts';
import { buildZip, manifestXml } from '../testing/zip-writer.ts';

const NAMESPACE = 'learning.LearningContentRegistration';
const query = (intent: string) => ({ __meta__: { namespace: NAMESPACE, intent, schema: 'controller', sideEffects: { multipartFormUpload: true } } });
const course = () => buildZip([{ name: 'imsmanifest.xml', data: manifestXml('Spelling', 'index.html') }, { name: 'index.html', data: '<p>hi</p>' }]);

describe('one canonical intent key for handler and permissions', () => {
  let s: FileServer;
  let viewer: string;
  let agent: string;
  beforeAll(async () => {
    s = await startFileServer();
    [viewer, agent] = await Promise.all([s.login('viewer', 'viewer-demo'), s.login('agent', 'agent-demo')]);
  });
  afterAll(() => s.close());

  const registrations = (): number => s.rows(`SELECT COUNT(*) AS n FROM "${NAMESPACE}"`)[0].n;
  const upload = (intent: string, token: string) => s.put(form(query(intent), { package: { data: course(), name: 'course.zip', type: 'application/zip' } }), token);

  it('refuses names that are neither camelCase nor snake_case as unknown_intent, over PUT and POST, storing nothing', async () => {
    const before = registrations();
    for (const intent of ['UploadPackage', 'upload_Package', 'UPLOAD_PACKAGE', 'upload-package', 'uploadPackage_']) {
      for (const token of [viewer, agent]) {
        const put = await upload(intent, token);
        expect(put.status, `${intent} PUT`).toBe(400);
        expect(put.body.__errors__[0]).toMatchObject({ code: 'unknown_intent', path: ['__meta__', 'intent'] });
        const post = await s.post(query(intent), token);
        expect(post.status, `${intent} POST`).toBe(400);
        expect(post.body.__errors__[0].code).toBe('unknown_intent');
      }
    }
    expect(registrations()).toBe(before);
    expect(s.stored()).toEqual({ blobs: [], temps: [] });
  });

  it('applies the permission entry to both accepted spellings: a viewer is forbidden, an agent runs the handler', async () => {
    for (const intent of ['uploadPackage', 'upload_package']) {
      const put = await upload(intent, viewer);
      expect(put.status, `${intent} as viewer`).toBe(403);
      expect(put.body.__errors__[0].code).toBe('forbidden');
      expect((await s.post(query(intent), viewer)).status, `${intent} POST as viewer`).toBe(403);
    }
    expect(s.stored().blobs).toEqual([]);
    const done = await upload('upload_package', agent);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.__intent__).toBe('uploadPackage');
  });

  it('applies the same key to model intents: retrieve_one is retrieveOne, RetrieveOne is unknown', async () => {
    const one = await s.post({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve_one', uniqueObject: { id: 1 } }, title: null });
    expect(one.status).toBe(200);
    expect(one.body.__intent__).toBe('retrieve');
    const cased = await s.post({ __meta__: { namespace: 'tickets.Ticket', intent: 'RetrieveOne', uniqueObject: { id: 1 } } });
    expect(cased.body.__errors__[0].code).toBe('unknown_intent');
  });

  it('describes every controller list under the canonical key', async () => {
    const res = await s.post({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } });
    expect(res.body.__payload__.apps.learning.controllers.LearningContentRegistration).toEqual({
      intents: ['uploadPackage'],
      permissions: { uploadPackage: ['agent', 'admin'] },
      files: { uploadPackage: ['package'] },
    });
  });
});
