import { mkdtempSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { consoleUrl, findChromium } from './bench/console-page.ts';
import { startNode } from './bench/load.ts';
const found = findChromium() as any;
const server = await startNode(['bin/jql-console.mjs', 'serve', '--data', mkdtempSync('/tmp/speed/demo-'), '--port', '0', '--local-admin'], /listening on (http\S+)/);
const browser = await chromium.launch({ executablePath: found.executablePath, args: found.args });
const url = await consoleUrl(server);
for (let round = 0; round < 4; round++) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 860 } });
  const page = await context.newPage();
  await page.goto(url);
  const line = page.getByTestId('query-editor').locator('.view-line').nth(4);
  await line.waitFor();
  const now = () => page.evaluate(() => Math.round(performance.now()));
  const log: string[] = [`editor ${await now()}`];
  await line.click({ position: { x: 5, y: 4 } });
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  log.push(`typed ${await now()}`);
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press('ControlOrMeta+Space');
    await page.locator('.suggest-widget.visible .monaco-list-row').first().waitFor({ timeout: 150 }).catch(() => undefined);
    const rows = await page.locator('.suggest-widget.visible .monaco-list-row').allInnerTexts().catch(() => []);
    const msg = await page.locator('.suggest-widget.visible .message').innerText().catch(() => '');
    log.push(`try${i} ${await now()} rows=${rows.length} ${rows.slice(0, 2).join('|').replace(/\s+/g, ' ').slice(0, 50)} ${msg}`);
    if (rows.some((r) => r.includes('__'))) break;
    await page.keyboard.press('Escape');
  }
  const res = await page.evaluate(() => performance.getEntriesByType('resource').map((e: any) => `${e.name.replace(/^.*\//, '').slice(0, 18)} ${Math.round(e.startTime)}-${Math.round(e.responseEnd)}`).join(', '));
  console.log(log.join('\n'), '\n', res, '\n');
  await context.close();
}
await browser.close(); await server.stop();
