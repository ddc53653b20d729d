/**
 * Upload: a file picked in the generated form of tickets.Document, sent as multipart with a visible
 * progress bar (the upload is throttled so progress can be seen), creates a record whose stored
 * file then downloads byte for byte.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures/test.ts';
import { UploadPage } from './pages/upload-page.ts';
import { screenshotPath } from './fixtures/screenshots.ts';

/** Deterministic bytes that are not all the same, so a corrupted transfer cannot look intact. */
function fileBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let x = 2463534242;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

test('uploads a file with progress; the created record holds it and it downloads intact', async ({ app, page }) => {
  const content = fileBytes(2 * 1024 * 1024);
  const upload = new UploadPage(page);

  // Arrange: the form for tickets.Document create, filled in.
  await app.showView('Upload');
  await upload.target.selectOption({ label: 'tickets.Document · create' });
  await upload.field('ticket').fill('1');
  await upload.field('title').fill('Signed contract');
  await upload.fileInput('file').setInputFiles({ name: 'contract.bin', mimeType: 'application/octet-stream', buffer: content });
  await expect(upload.previewRow('query')).toContainText('"fileFieldMapping"');
  await expect(upload.previewRow('file')).toContainText('contract.bin');
  await expect(upload.previewRow('file')).toContainText('2 MiB');

  // Act: send at 1 MiB/s, so the upload takes long enough to watch it progress.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
  await upload.uploadButton.click();

  // Assert: the progress bar moves, then the answer and the stored file.
  await expect(upload.progress).toBeVisible();
  await expect(upload.progressText).toContainText(/of 2 MiB \(\d+%\)/);
  await expect(upload.outcome).toContainText(/^20[01] /);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(upload.responseStatus).toHaveText(/^20[01]/);
  await expect(upload.jsonTree).toContainText('Signed contract');
  await expect(upload.storedFiles).toContainText(`contract.bin · 2 MiB · sha256 ${sha256(content).slice(0, 12)}`);

  const downloading = page.waitForEvent('download');
  await upload.storedFiles.getByRole('button', { name: 'download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('contract.bin');
  expect(sha256(await readFile(await download.path()))).toBe(sha256(content));
  await page.screenshot({ path: screenshotPath('upload-form.png') });
});

test('catches a missing required field before sending', async ({ app, page }) => {
  const upload = new UploadPage(page);
  await app.showView('Upload');
  await upload.target.selectOption({ label: 'tickets.Document · create' });
  await upload.field('ticket').fill('1');
  await upload.uploadButton.click();
  await expect(upload.root.getByRole('alert').filter({ hasText: 'is required' })).toBeVisible();
  await expect(upload.outcome).toHaveCount(0);
});

test('cancels an upload in flight', async ({ app, page }) => {
  const upload = new UploadPage(page);
  await app.showView('Upload');
  await upload.target.selectOption({ label: 'tickets.Document · create' });
  await upload.field('ticket').fill('1');
  await upload.field('title').fill('Cancelled upload');
  await upload.fileInput('file').setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: fileBytes(1024 * 1024) });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 128 * 1024 });

  await upload.uploadButton.click();
  await expect(upload.progress).toBeVisible();
  await upload.root.getByRole('button', { name: 'Cancel' }).click();

  // (Chromium's throttling slows what the page sees, not what reaches a server on loopback, so
  // whether the server kept the record is not something this test can tell.)
  await expect(upload.root.getByText(/^Cancelled before the server answered/)).toBeVisible();
  await expect(upload.outcome).toHaveCount(0);
  await expect(upload.uploadButton).toBeEnabled();
});

test('a file over the size limit is explained as soon as it is chosen', async ({ app, page }) => {
  const upload = new UploadPage(page);
  await app.showView('Upload');
  await upload.target.selectOption({ label: 'tickets.Document · create' });
  // Over the demo's 100 MiB: a sparse file, so nothing that large is written.
  const dir = mkdtempSync(join(tmpdir(), 'jql-e2e-upload-'));
  try {
    const big = join(dir, 'huge.bin');
    writeFileSync(big, '');
    truncateSync(big, 101 * 1024 * 1024);
    await upload.fileInput('file').setInputFiles(big);
    // The reason comes before any click on Upload, and only the file's: the empty fields wait.
    await expect(upload.root).toContainText('huge.bin is 101 MiB; the server accepts at most 100 MiB per file');
    await expect(upload.root).not.toContainText('needs a file');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the stored files come into view after an upload', async ({ app, page }) => {
  const upload = new UploadPage(page);
  // A short window, as on a laptop with the form filled in: the answer lands below the fold.
  await page.setViewportSize({ width: 1280, height: 520 });
  await app.showView('Upload');
  await upload.target.selectOption({ label: 'tickets.Document · create' });
  await upload.field('ticket').fill('1');
  await upload.field('title').fill('Scrolled into view');
  await upload.fileInput('file').setInputFiles({ name: 'small.txt', mimeType: 'text/plain', buffer: Buffer.from('small') });
  await upload.uploadButton.click();
  await expect(upload.storedFiles).toContainText('small.txt');
  await expect(upload.storedFiles).toBeInViewport();
});
