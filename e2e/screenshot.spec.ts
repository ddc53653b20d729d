/** The README's main-screen screenshot (docs/screenshot.png with `npm run screenshots`): the main screen with a query, its rows and the SQL it ran. */
import { expect, test } from './fixtures/test.ts';
import { screenshotPath } from './fixtures/screenshots.ts';

test('main screen screenshot', async ({ app, page }) => {
  await app.setQuery({
    __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { status: 'open', priority__gte: 4 }, ordering: ['-priority', 'due'], limit: 50 },
    title: null,
    status: null,
    priority: null,
    assignee: { username: null },
    due: null,
  });
  await app.queryInfoLevel.selectOption('2');
  await app.run();
  await expect(app.tableRows.first()).toBeVisible();
  await expect(app.extras).toContainText('of');
  await page.screenshot({ path: screenshotPath('screenshot.png') });
});
