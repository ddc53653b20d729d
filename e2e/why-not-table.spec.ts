/**
 * "Why can't a user see this record?" from the Query view's table (docs/protocol.md "See as" and
 * "Why not"), opened with the mouse and with the keyboard.
 *
 * On the embedded demo server every model is readable by every signed-in user (`anyone` or
 * `authenticated`, and the agents' row scope of tickets is widened by `anyone`), so there the
 * answer is "viewer sees this record". A permission that removes a record is shown on a server of
 * its own, whose salaries only managers may read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, REMOTE_ADMIN, test } from './fixtures/test.ts';
import { jqlApi } from './fixtures/jql-api.ts';
import { startServer, type SpawnedServer } from './fixtures/serve.ts';

const OBJECTS = { __meta__: { namespace: 'objects.Object', intent: 'retrieve', ordering: ['id'] }, name: null };

const WORKSPACE = {
  name: 'payroll',
  apps: {
    hr: {
      models: {
        Salary: {
          fields: { employee: { type: 'string', required: true }, amount: { type: 'integer' } },
          permissions: { retrieve: ['manager'], create: ['admin'] },
        },
      },
    },
  },
};

let server: SpawnedServer;
let folder: string;

test.beforeAll(async ({ consoleServer }) => {
  folder = mkdtempSync(join(tmpdir(), 'jql-e2e-why-not-table-'));
  const file = join(folder, 'payroll.workspace.json');
  writeFileSync(file, JSON.stringify(WORKSPACE));
  server = await startServer({ corsOrigin: consoleServer.origin, admin: `${REMOTE_ADMIN.username}:${REMOTE_ADMIN.password}`, workspace: file });
  const api = jqlApi(server.url);
  const token = await api.login(REMOTE_ADMIN.username, REMOTE_ADMIN.password);
  for (const body of [
    { __meta__: { namespace: 'system.User', intent: 'create' }, username: 'clerk', password: 'clerk-password-1', roles: [] },
    { __meta__: { namespace: 'hr.Salary', intent: 'create' }, employee: 'Ann', amount: 5100 },
  ]) {
    const res = await api.post(body, token);
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

test("the table's context menu asks why a user cannot see a record: the permission and the roles", async ({ app, page }) => {
  await app.addConnection('Payroll', server.url, REMOTE_ADMIN, { kind: 'staging' });
  await app.runOn('Payroll', { __meta__: { namespace: 'hr.Salary', intent: 'retrieve', ordering: ['id'] }, employee: null, amount: null });
  const firstCell = app.tableRows.first().getByRole('gridcell').first();
  const id = Number(await firstCell.innerText());

  await firstCell.click({ button: 'right' });
  const item = page.getByRole('menu', { name: `Record ${id}` }).getByRole('menuitem', { name: "Why can't a user see this record?…" });
  await expect(item).toBeFocused();
  await item.click();

  const dialog = page.getByRole('dialog', { name: `Why can't a user see record ${id}?` });
  await dialog.getByLabel('Username').fill('clerk');
  await dialog.getByRole('button', { name: 'Ask' }).click();
  const reasons = dialog.getByRole('list', { name: `Why clerk cannot see record ${id}` });
  await expect(reasons).toContainText('permission');
  await expect(reasons).toContainText('clerk (roles: none) may not retrieve hr.Salary: it needs one of the roles manager');

  // A user the server does not know: its refusal, not an empty explanation.
  await dialog.getByLabel('Username').fill('nobody-here');
  await dialog.getByRole('button', { name: 'Ask' }).click();
  await expect(dialog.getByRole('status')).toContainText('nobody-here');
  await expect(dialog.getByTestId('why-not-record-visible')).toHaveCount(0);

  // Escape closes it and gives the focus back to the grid's cell.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(firstCell).toBeFocused();
});

test('on the demo, from the keyboard (Shift+F10, ContextMenu): viewer sees the object', async ({ app, page }) => {
  await app.runOn('Embedded server', OBJECTS);
  await app.tableRows.first().getByRole('gridcell').first().click();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const cell = app.tableRows.nth(1).getByRole('gridcell').nth(1);
  await expect(cell).toBeFocused();
  const id = Number(await app.tableRows.nth(1).getByRole('gridcell').first().innerText());

  await page.keyboard.press('Shift+F10');
  const item = page.getByRole('menu', { name: `Record ${id}` }).getByRole('menuitem');
  await expect(item).toBeFocused();
  // Escape closes the menu, back to the cell, whose arrow keys still move the selection.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(cell).toBeFocused();

  await page.keyboard.press('ContextMenu');
  await expect(item).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Why can't a user see record ${id}?` });
  await expect(dialog.getByLabel('Username')).toBeFocused();
  await page.keyboard.type('viewer');
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('why-not-record-visible')).toHaveText('viewer sees this record.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(cell).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(app.tableRows.nth(2).getByRole('gridcell').nth(1)).toBeFocused();
});

test('a multi-query offers no record menu (why-not asks about one query)', async ({ app, page }) => {
  await app.runOn('Embedded server', { objects: OBJECTS });
  await app.tableRows.first().getByRole('gridcell').first().click({ button: 'right' });
  await expect(page.getByRole('menu')).toHaveCount(0);
});
