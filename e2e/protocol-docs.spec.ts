/**
 * The protocol explained where it is written: hovers over the query's words say what they mean and
 * link to their section of docs/protocol.md, opened in the Docs view; an error links to its code's
 * entry, from the errors list and from its marker in the editor.
 */
import { expect, test } from './fixtures/test.ts';

test('a __meta__ key, a lookup and an intent explain themselves and open their section in the Docs view', async ({ app }) => {
  await expect(app.schemaState).toHaveText('schema: demo');
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { priority__gte: 4 }, limit: 5 } });

  await app.hoverToken('"limit"');
  await expect(app.hover).toContainText('How many records at most');
  await app.hoverToken('"priority__gte"');
  await expect(app.hover).toContainText('Lookup __gte: greater than or equal');
  await expect(app.hover).toContainText('Field priority: integer');
  await app.hoverToken('"retrieve"');
  await expect(app.hover).toContainText('Intent retrieve: Records matching filter/exclude/search');

  // The namespace key's own sentence keeps its angle brackets: it is text, not HTML.
  await app.hoverToken('"namespace"');
  await expect(app.hover).toContainText('"<app>.<Name>"');

  await app.hoverToken('"limit"');
  await app.hover.getByRole('link', { name: 'Read more in the protocol docs' }).click();
  await expect(app.viewPanel('Docs')).toBeVisible();
  await expect(app.docsHeading('limit-offset-and-draw')).toBeInViewport();
});

test('a namespace from describe reads as its name in the hover', async ({ app }) => {
  await expect(app.schemaState).toHaveText('schema: demo');
  await app.setQuery({ __meta__: { namespace: 'documents.Folder', intent: 'addDocument', schema: 'controller' } });
  await app.hoverToken('"documents.Folder"');
  await expect(app.hover).toContainText('Controller documents.Folder: intents addDocument, createFolderWithDocuments');
  await expect(app.hover.locator('code', { hasText: 'documents.Folder' }).first()).toBeVisible();
});

test('an error in the response links to its code in the docs, from the list and from its marker', async ({ app, page }) => {
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { priorty__gte: 3 } } });
  await app.run();
  await expect(app.status).toHaveText(/^400/);

  await app.errorsList.getByRole('button', { name: 'About unknown_field' }).click();
  await expect(app.viewPanel('Docs')).toBeVisible();
  await expect(app.docsHeading('unknown_field')).toBeInViewport();

  await app.showView('Query');
  await app.errorsList.getByRole('button').first().click();
  await expect(app.hover).toContainText('Unknown field "priorty" on tickets.Ticket');
  await app.hover.getByRole('link', { name: 'unknown_field' }).click();
  await expect(app.viewPanel('Docs')).toBeVisible();
  await expect(app.docsHeading('unknown_field')).toBeInViewport();
  expect(page.url()).not.toContain('docs');
});
