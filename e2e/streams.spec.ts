/**
 * Streams: a subscription in one tab shows, live, what another tab creates, updates and deletes; the
 * server is then stopped and restarted on the same port and data, and the subscription resumes from
 * the last sequence number it saw, losing nothing. The spec runs its own server for that.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, REMOTE_ADMIN, test } from './fixtures/test.ts';
import { freePort, startServer, type SpawnedServer } from './fixtures/serve.ts';
import { ConsolePage } from './pages/console-page.ts';
import { StreamsPage } from './pages/streams-page.ts';
import { screenshotPath } from './fixtures/screenshots.ts';

const CONNECTION = 'Stream server';
const TICKET = 'tickets.Ticket';

test('a subscription shows another tab’s changes live and resumes without loss after a server restart', async ({ app, page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'jql-e2e-streams-'));
  const port = await freePort();
  const serve = () => startServer({ corsOrigin: new URL(baseURL!).origin, admin: `${REMOTE_ADMIN.username}:${REMOTE_ADMIN.password}`, dataDir, port });
  let server: SpawnedServer = await serve();
  const other = await browser.newContext();
  try {
    // Arrange: this tab subscribes to tickets on the spec's server.
    await app.addConnection(CONNECTION, server.url, REMOTE_ADMIN);
    const streams = new StreamsPage(page);
    await app.showView('Streams');
    await streams.connectionPicker.selectOption({ label: CONNECTION });
    await expect(streams.connectionState).toContainText(`${CONNECTION}: open`);
    await streams.namespace.fill(TICKET);
    await streams.subscribeButton.click();
    await expect(streams.subscription('s1')).toContainText('active');

    // Act: another tab (its own browser context) changes a ticket.
    const writer = new ConsolePage(await other.newPage());
    await writer.open();
    await writer.addConnection(CONNECTION, server.url, REMOTE_ADMIN, { kind: 'development' });
    const title = `Streamed ticket ${Date.now()}`;
    await writer.runOn(CONNECTION, { __meta__: { namespace: TICKET, intent: 'create' }, title, priority: 2 });
    const created = streams.log.locator('[data-event="created"]');
    await expect(created).toHaveCount(1);
    const id = (await created.getAttribute('data-record'))!;
    await writer.runOn(CONNECTION, { __meta__: { namespace: TICKET, intent: 'update', uniqueObject: { id: Number(id) } }, status: 'pending' });
    await writer.runOn(CONNECTION, { __meta__: { namespace: TICKET, intent: 'delete', uniqueObject: { id: Number(id) } } });

    // Assert: the three events, in order, with the record.
    await expect(streams.eventRow('updated', id)).toHaveCount(1);
    await expect(streams.eventRow('deleted', id)).toHaveCount(1);
    await expect(streams.events).toHaveCount(3);
    await streams.eventRow('updated', id).click();
    await expect(streams.detail).toContainText('"pending"');
    const seqs = await streams.events.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-seq'))));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    // Act: restart the server on the same port and data; the other tab writes as soon as it is back.
    await server.stop();
    await expect(streams.connectionState).toContainText('waiting');
    server = await serve();
    await writer.runOn(CONNECTION, { __meta__: { namespace: TICKET, intent: 'create' }, title: `${title} (after restart)`, priority: 3 });

    // Assert: resumed from the last seq seen, nothing missed, nothing twice.
    await expect(streams.connectionState).toContainText(`${CONNECTION}: open`, { timeout: 20_000 });
    await expect(streams.markers.filter({ hasText: 'Reconnected.' })).toHaveCount(1);
    await expect(streams.markers.filter({ hasText: `s1: Resumed` })).toContainText('nothing missed');
    await expect(streams.log.locator('[data-event="created"]')).toHaveCount(2);
    await expect(streams.events).toHaveCount(4);
    const after = await streams.events.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-seq'))));
    expect(after[3]).toBeGreaterThan(seqs[2]!);
    await expect(streams.subscription('s1')).toContainText('4 events');
    await expect(streams.subscription('s1')).not.toContainText('duplicates');
    await streams.eventRow('updated', id).click();
    await page.screenshot({ path: screenshotPath('stream-inspector.png') });
  } finally {
    await other.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('filters a subscription with the completion of the query editor', async ({ app, page }) => {
  const streams = new StreamsPage(page);
  await app.showView('Streams');
  await expect(streams.connectionState).toContainText('Embedded server: open');

  // Arrange: a subscription to urgent tickets only, its filter written with completion.
  await streams.namespace.fill(TICKET);
  await streams.filterEditor.click();
  await page.keyboard.type('{"priority__g');
  await expect(streams.suggestion('priority__gte')).toBeVisible();
  await streams.suggestion('priority__gte').click();
  // (A closing brace the editor added itself is typed over.)
  await page.keyboard.type('5}');
  await streams.subscribeButton.click();
  await expect(streams.subscription('s1')).toContainText('priority__gte');
  await expect(streams.subscription('s1')).toContainText('active');

  // Act: one urgent ticket and one that is not.
  const title = `Filtered ${Date.now()}`;
  await app.runOn('Embedded server', { __meta__: { namespace: TICKET, intent: 'create' }, title: `${title} (urgent)`, priority: 5 });
  await app.runOn('Embedded server', { __meta__: { namespace: TICKET, intent: 'create' }, title: `${title} (low)`, priority: 1 });

  // Assert: only the urgent one reached the log.
  await app.showView('Streams');
  await expect(streams.events).toHaveCount(1);
  await streams.events.first().click();
  await expect(streams.detail).toContainText(`${title} (urgent)`);
});
