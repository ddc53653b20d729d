/**
 * Issue 21.2: a record planted in the data must not send the console's credential anywhere. A
 * ticket whose `meta` (a json field) holds file-shaped objects pointing at a collector server is
 * updated with a real attachment from the Upload view, as the local admin: the stored files list
 * only the declared `file` field, and the collector receives no request at all.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jqlApi } from './fixtures/jql-api.ts';
import { expect, test } from './fixtures/test.ts';
import { UploadPage } from './pages/upload-page.ts';

let collector: Server;
let collectorUrl = '';
const received: Array<Pick<IncomingMessage, 'method' | 'url' | 'headers'>> = [];

test.beforeAll(async () => {
  collector = createServer((req, res) => {
    received.push({ method: req.method, url: req.url, headers: req.headers });
    res.writeHead(200, { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' }).end('stolen');
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  collector.closeAllConnections();
  await new Promise((resolve) => collector.close(resolve));
});

test('a file-shaped value in a json field is data, not a link: the collector gets nothing', async ({ app, page, baseURL }) => {
  // Arrange: another user plants a ticket whose meta looks like stored files on the collector.
  const api = jqlApi(String(baseURL));
  const agent = await api.login('agent', 'agent-demo');
  const fileShaped = (url: string) => ({ name: 'invoice.pdf', size: 1234, content_type: 'application/pdf', sha256: 'ab'.repeat(32), url });
  const planted = await api.post(
    {
      __meta__: { namespace: 'tickets.Ticket', intent: 'create' },
      title: 'Planted ticket',
      meta: { evidence: fileShaped(`${collectorUrl}/steal`), copy: { file: fileShaped(`//127.0.0.1:${new URL(collectorUrl).port}/steal2`) } },
    },
    agent,
  );
  expect(planted.status).toBe(200);
  const id = (planted.body.__payload__ as { id: number }).id;

  // Act: the local admin attaches a file to that ticket in the Upload view.
  const upload = new UploadPage(page);
  await app.showView('Upload');
  await upload.target.selectOption({ label: 'tickets.Ticket · update' });
  await upload.root.getByPlaceholder('{"id": 1}').fill(`{"id": ${id}}`);
  await upload.fileInput('attachment').setInputFiles({ name: 'real.txt', mimeType: 'text/plain', buffer: Buffer.from('the real attachment') });
  await upload.uploadButton.click();

  // Assert: the answer holds the planted values; whatever the stored files offer to download, taking
  // it reaches the collector never, and only the declared file field is listed.
  await expect(upload.outcome).toContainText(/^200 /);
  await expect(upload.jsonTree).toContainText('Planted ticket');
  await expect(upload.storedFiles).toContainText('attachment: real.txt');
  for (const button of await upload.storedFiles.getByRole('button', { name: 'download' }).all()) await button.click();
  for (const link of await upload.storedFiles.getByRole('link').all()) expect(await link.getAttribute('href')).toMatch(new RegExp(`^${String(baseURL)}/`));
  // The page's own server answers a request sent after the clicks: what they sent has gone out.
  await expect(page.evaluate(async () => (await fetch('/healthz')).status)).resolves.toBe(200);
  expect(received).toEqual([]);
  await expect(upload.storedFiles.getByRole('listitem')).toHaveCount(1);
  await expect(upload.storedFiles).not.toContainText('invoice.pdf');
});
