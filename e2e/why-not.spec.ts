/**
 * "See as" and "Why not?" (docs/protocol.md): support compares what an admin and an agent see of the
 * same read, without the agent's password, and asks the server why a ticket is missing for the
 * agent: the row scope, with the field and the two values. The server here has a workspace of its
 * own, where agents read only the tickets assigned to them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, REMOTE_ADMIN, test } from './fixtures/test.ts';
import { startServer, type SpawnedServer } from './fixtures/serve.ts';
import { DiffPage } from './pages/diff-page.ts';

const WORKSPACE = {
  name: 'support',
  apps: {
    support: {
      models: {
        Ticket: {
          fields: { title: { type: 'string', required: true }, assignee: { type: 'ref', to: 'system.User', null: true } },
          permissions: { retrieve: ['agent'], scope: { agent: { assignee: '$user.id' } } },
        },
      },
    },
  },
};

let server: SpawnedServer;
let folder: string;
const ids = { admin: 0, agent: 0 };

async function jql(body: object, token?: string): Promise<any> {
  const res = await fetch(`${server.url}/jql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { __payload__: any };
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(answer)}`);
  return answer.__payload__;
}

test.beforeAll(async ({ consoleServer }) => {
  folder = mkdtempSync(join(tmpdir(), 'jql-e2e-why-not-'));
  const file = join(folder, 'support.workspace.json');
  writeFileSync(file, JSON.stringify(WORKSPACE));
  server = await startServer({ corsOrigin: consoleServer.origin, admin: `${REMOTE_ADMIN.username}:${REMOTE_ADMIN.password}`, workspace: file });
  const { token, user } = await jql({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, ...REMOTE_ADMIN });
  ids.admin = user.id;
  ids.agent = (await jql({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'agent-ann', password: 'ann-password-1', roles: ['agent'] }, token)).id;
  await jql({ __meta__: { namespace: 'support.Ticket', intent: 'create' }, title: 'Printer on fire', assignee: ids.agent }, token);
  await jql({ __meta__: { namespace: 'support.Ticket', intent: 'create' }, title: 'VPN down', assignee: ids.admin }, token);
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

test('Diff as two users shows a ticket missing for the agent, and "Why not?" names the row scope and both values', async ({ app, page }) => {
  const diff = new DiffPage(page);
  await app.addConnection('Support', server.url, REMOTE_ADMIN, { kind: 'staging' });
  await app.setQuery({ __meta__: { namespace: 'support.Ticket', intent: 'retrieve', ordering: ['id'] }, title: null });
  await app.showView('Diff');
  await diff.mode('Same connection, two users').check();
  await page.getByLabel('Diff connection').selectOption({ label: 'Support' });

  // The agent, seen as by the admin: no password asked.
  await diff.identities.getByLabel('See as username').fill('agent-ann');
  await diff.identities.getByRole('button', { name: 'See as' }).click();
  await diff.leftIdentity.selectOption({ label: `Support as ${REMOTE_ADMIN.username}` });
  await diff.rightIdentity.selectOption({ label: 'Support as agent-ann (seen as)' });
  await diff.runButton.click();

  await expect(diff.summary).toHaveText(/^0 added · 1 removed · 0 changed · 1 unchanged/);
  const missing = diff.changeRows('removed');
  await expect(missing).toContainText('VPN down');
  await missing.getByRole('button', { name: 'Why not on Support as agent-ann (seen as)?' }).click();
  const reasons = page.getByTestId('why-not-reasons');
  await expect(reasons).toContainText('row scope');
  await expect(reasons).toContainText(`The record is outside agent-ann's row scope of support.Ticket: it needs assignee = ${ids.agent}, the record has ${ids.admin}`);
});
