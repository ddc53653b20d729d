/**
 * Accessibility: axe-core's WCAG 2.1 A and AA rules over every view of the rail, with an answer shown,
 * a stream open and a dialog open, and the watch banner of a `serve --watch` connection. A serious or critical violation fails the spec; every view is checked
 * (soft assertions) so one run names them all, and the count per view is printed for the record.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { startServer, type SpawnedServer } from './fixtures/serve.ts';
import { expect, test } from './fixtures/test.ts';
import { StreamsPage } from './pages/streams-page.ts';
import { WatchBannerPage } from './pages/watch-banner.ts';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const VIEWS = ['Query', 'Upload', 'Streams', 'History', 'Saved', 'Diff', 'Docs'] as const;

/**
 * The serious and critical violations on the page as it is now: one line per rule, with how many
 * elements break it and the first few of them (a table breaks one rule in hundreds of cells).
 */
async function seriousViolations(page: Page): Promise<{ count: number; rules: string[] }> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  return {
    count: serious.reduce((n, v) => n + v.nodes.length, 0),
    rules: serious.map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.help}; e.g. ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`),
  };
}

/** Checks the page, prints the count under `where`, and records a soft failure naming each rule broken. */
async function expectNoSeriousViolations(page: Page, where: string): Promise<void> {
  const found = await seriousViolations(page);
  console.log(`axe ${where}: ${found.count} serious or critical`);
  expect.soft(found.rules, `serious or critical axe violations in ${where}`).toEqual([]);
}

test('every view, with an answer shown, a stream open and a dialog open, has no serious or critical WCAG 2.1 AA violation', async ({ app, page }) => {
  test.setTimeout(400_000);
  // Arrange: a live subscription that has seen an event, and an answer with rows.
  const streams = new StreamsPage(page);
  await app.showView('Streams');
  await expect(streams.connectionState).toContainText('open');
  await streams.namespace.fill('tickets.Ticket');
  await streams.subscribeButton.click();
  await expect(streams.subscription('s1')).toContainText('active');
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'create' }, title: 'Checked by axe', priority: 2 });
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve' } });
  await expect(app.tableRows.first()).toBeVisible();
  await app.showView('Streams');
  await expect(streams.events).not.toHaveCount(0);

  // Assert: each view of the rail.
  for (const view of VIEWS) {
    await app.showView(view);
    await expectNoSeriousViolations(page, `the ${view} view`);
  }

  // The answer's other views.
  await app.showView('Query');
  for (const view of ['JSON', 'SQL', 'Raw'] as const) {
    await app.view(view).click();
    await expectNoSeriousViolations(page, `the answer's ${view} view`);
  }

  // A dialog open over the console.
  await app.addConnectionButton.click();
  await expect(app.connectionDialog).toBeVisible();
  await expectNoSeriousViolations(page, 'the Add connection dialog');
});

test('the watch banner of a `serve --watch` connection, with its migration preview, has no serious or critical WCAG 2.1 AA violation', async ({ app, page, baseURL }) => {
  test.setTimeout(120_000);
  // Arrange: a watched workspace whose notes hold a body, then the field removed from its file.
  const notes = (fields: Record<string, unknown>) => ({
    name: 'notes',
    apps: { notes: { models: { Note: { fields: { title: { type: 'string', required: true }, ...fields }, permissions: { retrieve: ['anyone'], create: ['anyone'] } } } } },
  });
  const admin = { username: 'keeper', password: 'keeper-secret-1' };
  const dir = mkdtempSync(join(tmpdir(), 'jql-e2e-axe-watch-'));
  const file = join(dir, 'jql.workspace.json');
  writeFileSync(file, JSON.stringify(notes({ body: { type: 'text', null: true } })));
  let server: SpawnedServer | null = null;
  try {
    server = await startServer({ corsOrigin: new URL(baseURL!).origin, admin: `${admin.username}:${admin.password}`, watch: true, workspace: file });
    await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ __meta__: { namespace: 'notes.Note', intent: 'create' }, title: 'one', body: 'first body' }) });
    await app.addConnection('Watched', server.url, admin, { kind: 'development' });
    writeFileSync(file, JSON.stringify(notes({})));
    const watch = new WatchBannerPage(app, 'Watched');
    await expect(watch.change('notes.Note.body')).toContainText('1 row', { timeout: 15_000 });
    await expect(watch.apply).toBeVisible();

    // Assert: the view with the banner shown.
    await app.showView('Query');
    await expectNoSeriousViolations(page, 'the Query view with the watch banner shown');
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
