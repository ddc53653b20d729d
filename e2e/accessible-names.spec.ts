/** Names stay put: what a control is called never changes with its state; the state is in aria- attributes. */
import { expect, test } from './fixtures/test.ts';

test('the Streams tab is called "Streams" while a stream is open, which its description says', async ({ app, page }) => {
  await app.showView('Streams');
  const tab = page.getByRole('tablist', { name: 'Views' }).getByRole('tab', { name: 'Streams', exact: true });
  await expect(tab).toHaveAccessibleDescription('a stream is open');
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await app.showView('Query');
  await expect(tab).toHaveAccessibleName('Streams');
  await expect(tab).toHaveAttribute('aria-selected', 'false');
});

test('a response view tab keeps its name whatever its count', async ({ app, page }) => {
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { priorty: 1 } } }, /^400/);
  const errors = page.getByRole('tablist', { name: 'Response views' }).getByRole('tab', { name: 'Errors', exact: true });
  await expect(errors).toHaveAccessibleDescription('1');
  await expect(errors).toHaveAttribute('aria-selected', 'true');
});

test('an answer without errors offers no Errors view to click', async ({ app, page }) => {
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 1 } }, /^200/);
  const errors = page.getByRole('tablist', { name: 'Response views' }).getByRole('tab', { name: 'Errors', exact: true });
  await expect(errors).toBeDisabled();
});
