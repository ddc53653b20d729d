/**
 * "Copy as curl" works as pasted (issue 11, defect 3): each copied curl runs in a real bash against
 * the real server and answers what the console showed. An anonymous request carries no
 * Authorization; a signed-in one offers $JQL_TOKEN (which, unset, stops with a sentence instead of
 * a 401 "The token is malformed") and "with my token" (the toast says it holds a secret).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';
import { jqlApi } from './fixtures/jql-api.ts';
import { runInBash } from './fixtures/shell.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const clipboard = (page: Page) => page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());
const clear = (page: Page) => page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { writeText(t: string): Promise<void> } } }).navigator.clipboard.writeText(''));

const QUERY = { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 3, ordering: ['id'] }, title: null, status: null };

async function copy(page: Page, kind: 'curl' | 'fetch', choice: RegExp | null): Promise<string> {
  await clear(page);
  await page.getByRole('button', { name: new RegExp(`^Copy as ${kind}`) }).click();
  if (choice) await page.getByRole('menuitem', { name: choice }).click();
  await expect.poll(() => clipboard(page)).not.toBe('');
  return clipboard(page);
}

/** The payload the console shows in its Raw view. */
async function shownPayload(page: Page): Promise<unknown> {
  await page.getByRole('tablist', { name: 'Response views' }).getByRole('tab', { name: /^Raw/ }).click();
  // The raw view fills in once the answer has arrived; read it only then.
  const raw = page.getByTestId('raw-body');
  await expect(raw).toContainText('__payload__');
  return JSON.parse(await raw.innerText()).__payload__;
}

test('each copied curl of a signed-in request runs in bash and answers what the console showed', async ({ app, page, baseURL }) => {
  // Signed in with a token: the local admin of browser mode is an HttpOnly cookie, no token to copy.
  await app.signInEmbeddedAs({ username: 'admin', password: 'admin-demo' });
  await app.setQuery(QUERY);
  await app.run();
  await expect(app.status).toHaveText(/^200/);
  const shown = await shownPayload(page);
  expect(shown).toHaveLength(3);

  // Anonymous: no Authorization at all, and the answer of a query anyone may read.
  const anonymous = await copy(page, 'curl', /^anonymous/);
  expect(anonymous).not.toMatch(/Authorization|JQL_TOKEN/);
  const asAnyone = await runInBash(anonymous);
  expect(asAnyone.code, asAnyone.stderr).toBe(0);
  expect(JSON.parse(asAnyone.stdout).__payload__).toEqual(shown);

  // With $JQL_TOKEN: a comment says how to get one; unset, it stops with that sentence and sends nothing.
  const withEnv = await copy(page, 'curl', /^with \$JQL_TOKEN/);
  expect(withEnv).toMatch(/^# This request runs as a signed-in user: put a token in JQL_TOKEN first/);
  const unset = await runInBash(withEnv);
  expect(unset.code).not.toBe(0);
  expect(unset.stdout).toBe('');
  expect(unset.stderr).toContain('set JQL_TOKEN to a token first, see the comment above');
  const token = await jqlApi(baseURL!).login('agent', 'agent-demo');
  const asAgent = await runInBash(withEnv, { JQL_TOKEN: token });
  expect(asAgent.code, asAgent.stderr).toBe(0);
  expect(JSON.parse(asAgent.stdout).__payload__).toEqual(shown);

  // With my token: the toast warns that the snippet holds a secret, and it runs as pasted.
  const withToken = await copy(page, 'curl', /^with my token/);
  await expect(app.toasts.filter({ hasText: 'The snippet holds a secret' })).toBeVisible();
  expect(withToken).toMatch(/-H 'Authorization: Bearer [^$]/);
  const asMe = await runInBash(withToken);
  expect(asMe.code, asMe.stderr).toBe(0);
  expect(JSON.parse(asMe.stdout).__payload__).toEqual(shown);

  // Copy as fetch offers the same choices, and never the token unless asked.
  expect(await copy(page, 'fetch', /^with \$JQL_TOKEN/)).toContain('process.env.JQL_TOKEN');
  expect(await copy(page, 'fetch', /^anonymous/)).not.toMatch(/Authorization/);
});

test('a request without credentials copies at once, with no Authorization, and runs as pasted', async ({ app, page, remoteServer }) => {
  await app.addConnectionButton.click();
  await app.connectionDialog.getByLabel('Name').fill('Public');
  await app.connectionDialog.getByLabel('Server URL').fill(remoteServer.url);
  await app.connectionDialog.getByRole('button', { name: 'Add connection' }).click();
  await app.signInDialog.getByRole('button', { name: 'Cancel' }).click();
  await app.runOn('Public', QUERY);
  const shown = await shownPayload(page);

  const curl = await copy(page, 'curl', null);
  expect(curl).not.toMatch(/Authorization|JQL_TOKEN|^#/m);
  const answer = await runInBash(curl);
  expect(answer.code, answer.stderr).toBe(0);
  expect(JSON.parse(answer.stdout).__payload__).toEqual(shown);
});
