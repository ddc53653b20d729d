/**
 * Every view fits a 1280×800 window and uses the width of a 1920×1080 one (issue 17, defect 4): the
 * Query toolbar keeps Run on its first row and the response header stays one line on an error; the
 * Upload and other view headers are one line; the Streams log shows its record id column and its
 * disconnect and resume lines whole (the "nothing missed" verdict as text, not in a tooltip); Diff's
 * tables take the panel's width. Each test saves a screenshot per size under
 * test-results/screenshots/ to look at.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, REMOTE_ADMIN, test } from './fixtures/test.ts';
import { jqlApi } from './fixtures/jql-api.ts';
import { expectInside, expectNoOverflow, expectWhole, layoutShot, partsOf, rowsOf } from './fixtures/layout.ts';
import { freePort, startServer, type SpawnedServer } from './fixtures/serve.ts';
import { DiffPage } from './pages/diff-page.ts';
import { StreamsPage } from './pages/streams-page.ts';
import { UploadPage } from './pages/upload-page.ts';

const TICKET = 'tickets.Ticket';
/** A document the server refuses with several errors: the long status line of a 400. */
const REFUSED = { __meta__: { namespace: TICKET, intent: 'retrieve', filter: { nope: 1, status__zz: 2 } }, title: null };

for (const size of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('Query: Run stays on the toolbar’s first row and the response header on one line, on a local and a remote tab', async ({ app, page, remoteServer }) => {
      await app.runOn('Embedded server', REFUSED, /^400/);
      await page.screenshot({ path: layoutShot('query-error', size.width) });
      const firstControl = app.connectionSelect;
      for (const connection of ['Embedded server', 'Deployment']) {
        if (connection === 'Deployment') {
          await app.addConnection('Deployment', remoteServer.url, REMOTE_ADMIN, { kind: 'staging' });
          await app.runOn('Deployment', REFUSED, /^400/);
          // A remote tab has one more tool: Reproduce locally.
          await expect(page.getByRole('button', { name: 'Reproduce locally' })).toBeVisible();
          await page.screenshot({ path: layoutShot('query-remote', size.width) });
        }
        // Run on the row of the toolbar's first control, whole and in the window.
        const run = (await app.runButton.boundingBox())!;
        const first = (await firstControl.boundingBox())!;
        expect(run.y, `${connection}: Run starts below the first control's row`).toBeLessThan(first.y + first.height);
        expect(run.y + run.height, `${connection}: Run ends above the first control's row`).toBeGreaterThan(first.y);
        await expect(app.runButton).toBeInViewport({ ratio: 1 });
        expect(await rowsOf(app.queryToolbarItems), `${connection}: the toolbar's rows`).toBe(1);
        expect(await rowsOf(partsOf(app.responseHeader)), `${connection}: the response header's rows`).toBe(1);
        await expectWhole(app.status, 'the status');
        await expectNoOverflow(page, [app.queryToolbar, app.responseHeader]);
      }
    });

    test('Upload: the header is one line and its form fits', async ({ app, page }) => {
      const upload = new UploadPage(page);
      await app.showView('Upload');
      await upload.target.selectOption({ label: 'tickets.Document · create' });
      await expect(upload.uploadButton).toBeVisible();
      await page.screenshot({ path: layoutShot('upload', size.width) });
      const header = app.viewHeader('Upload');
      expect(await rowsOf(partsOf(header)), 'the Upload header’s rows').toBe(1);
      await expectInside(upload.target, app.viewPanel('Upload'), 'the target picker');
      await expectInside(upload.uploadButton, app.viewPanel('Upload'), 'the Upload button');
      await expectNoOverflow(page, [header]);
    });

    test('Streams: the record id column and the disconnect and resume lines show whole', async ({ app, page, baseURL }) => {
      test.setTimeout(90_000);
      const streams = new StreamsPage(page);
      const dataDir = mkdtempSync(join(tmpdir(), 'jql-e2e-layout-'));
      const port = await freePort();
      const serve = () => startServer({ corsOrigin: new URL(baseURL!).origin, admin: `${REMOTE_ADMIN.username}:${REMOTE_ADMIN.password}`, dataDir, port });
      let server: SpawnedServer = await serve();
      try {
        // Arrange: a subscription, one event, then the server restarts under it.
        await app.addConnection('Stream server', server.url, REMOTE_ADMIN);
        await app.showView('Streams');
        await streams.connectionPicker.selectOption({ label: 'Stream server' });
        await expect(streams.connectionState).toContainText('Stream server: open');
        await streams.namespace.fill(TICKET);
        await streams.subscribeButton.click();
        await expect(streams.subscription('s1')).toContainText('active');
        const api = jqlApi(server.url);
        const token = await api.login(REMOTE_ADMIN.username, REMOTE_ADMIN.password);
        const created = await api.post({ __meta__: { namespace: TICKET, intent: 'create' }, title: 'Laid out', priority: 2 }, token);
        const id = String(created.body.__payload__.id);
        await expect(streams.eventRow('created', id)).toHaveCount(1);
        await server.stop();
        await expect(streams.connectionState).toContainText('waiting');
        server = await serve();
        await expect(streams.connectionState).toContainText('Stream server: open', { timeout: 20_000 });
        const resumed = streams.markers.filter({ hasText: 's1: Resumed' });
        await expect(resumed).toHaveCount(1);
        await page.screenshot({ path: layoutShot('streams', size.width) });

        // Assert: every column, the record id and both lines whole, inside the log.
        for (const column of ['time', 'seq', 'event', 'namespace', 'record id']) {
          await expectInside(streams.logColumn(column), streams.log, `the ${column} column`);
        }
        await expectWhole(streams.logColumn('record id'), 'the record id heading');
        const idCell = streams.recordIdCell(streams.eventRow('created', id));
        await expect(idCell).toHaveText(id);
        await expectWhole(idCell, 'the record id');
        await expectInside(idCell, streams.log, 'the record id');
        const disconnected = streams.markers.filter({ hasText: 'Disconnected' });
        await expectWhole(streams.markerText(disconnected), 'the disconnect line');
        await expectInside(streams.markerText(disconnected), streams.log, 'the disconnect line');
        const verdict = streams.markerText(resumed);
        await expect(verdict).toContainText('nothing missed');
        await expectWhole(verdict, 'the resume verdict');
        await expectInside(verdict, streams.log, 'the resume verdict');
        expect(await rowsOf(partsOf(app.viewHeader('Streams'))), 'the Streams header’s rows').toBe(1);
        await expectNoOverflow(page, [app.viewHeader('Streams')]);
      } finally {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    test('Diff: the tables take the panel’s width', async ({ app, page, remoteServer }) => {
      const diff = new DiffPage(page);
      await app.addConnection('Deployment', remoteServer.url, REMOTE_ADMIN, { kind: 'staging' });
      await app.setQuery({ __meta__: { namespace: TICKET, intent: 'retrieve', filter: { id__lte: 5 }, ordering: ['id'] }, title: null, status: null });
      await app.showView('Diff');
      await diff.left.selectOption({ label: 'Embedded server' });
      await diff.right.selectOption({ label: 'Deployment' });
      await diff.runButton.click();
      await expect(diff.summary).toBeVisible();
      await page.screenshot({ path: layoutShot('diff', size.width) });
      const panel = (await diff.panel.boundingBox())!;
      for (const table of [diff.timing, diff.extras]) {
        const box = (await table.boundingBox())!;
        expect(box.width, 'a table uses the panel’s width').toBeGreaterThan(panel.width * 0.9);
        await expectInside(table, diff.panel, 'a table');
      }
      expect(await rowsOf(partsOf(app.viewHeader('Diff'))), 'the Diff header’s rows').toBe(1);
      await expectNoOverflow(page, [app.viewHeader('Diff')]);
    });

    test('History, Saved and Docs: headers on one line; the docs list their sections where there is room', async ({ app, page }) => {
      await app.runOn('Embedded server', REFUSED, /^400/);
      for (const view of ['History', 'Saved', 'Docs'] as const) {
        await app.showView(view);
        await page.screenshot({ path: layoutShot(view.toLowerCase(), size.width) });
        expect(await rowsOf(partsOf(app.viewHeader(view))), `the ${view} header’s rows`).toBe(1);
        await expectNoOverflow(page, [app.viewHeader(view)]);
      }
      // The Docs view beside its page: its sections at 1920, the page alone at 1280.
      if (size.width >= 1920) {
        await expect(app.docsContents.getByRole('link', { name: 'Limits' })).toBeVisible();
        await app.docsContents.getByRole('link', { name: 'Streams' }).click();
        await expect(app.docsHeading('streams')).toBeInViewport();
      } else {
        await expect(app.docsContents).toBeHidden();
      }
    });
  });
}
