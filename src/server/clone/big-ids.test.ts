/**
 * Issue 29: a record whose id a double cannot hold was skipped without a word, so the copy seemed
 * whole while a record was missing. The clone now refuses it, naming the read and the id's digits,
 * and leaves no copy behind (docs/workspace.md "Ids a copy cannot hold").
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli-child.ts';
import { tempDir } from '../testing/fixture.ts';
import { hostileSource, type HostileSource } from '../testing/hostile-source.ts';

const model = { fields: { name: { type: 'string' } } };
const DESCRIBE = { workspace: 'big-ids', apps: { shop: { models: { Order: model } } }, limits: { defaultLimit: 5, maxLimit: 5, maxQueriesPerRequest: 4 } };

let source: HostileSource | null = null;
afterEach(async () => {
  await source?.close();
  source = null;
});

async function cloneIds(ids: Array<number | bigint>): Promise<{ code: number | null; stderr: string; out: string }> {
  source = await hostileSource('paging', { paging: { describe: DESCRIBE, page: (_namespace, offset) => ({ ids: offset === 0 ? ids : [], filtered: ids.length }) } });
  const dir = tempDir('jql-big-ids-');
  const query = join(dir, 'query.json');
  writeFileSync(query, JSON.stringify({ __meta__: { namespace: 'shop.Order', intent: 'retrieve' } }));
  const out = join(dir, 'copy');
  const outcome = await runCli(['clone', source.url, '--query', query, '--out', out, '--depth', '0', '--quiet'], { killAfterMs: 30_000 });
  return { code: outcome.code, stderr: outcome.stderr, out };
}

describe('clone of a record whose id a double cannot hold', () => {
  it('refuses an id above 2^63-1, naming it with its digits, and leaves no copy', async () => {
    const { code, stderr, out } = await cloneIds([1, 12345678901234567890n]);
    expect(code).not.toBe(0);
    expect(stderr).toContain('jql-console: shop.Order (the query) has a record with id 12345678901234567890: SQLite\'s INTEGER holds ids up to 9223372036854775807, so no copy can hold it; nothing was copied');
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('refuses an id above 2^53 rather than copying a rounded one', async () => {
    const { code, stderr, out } = await cloneIds([9007199254740993n]);
    expect(code).not.toBe(0);
    expect(stderr).toContain('has a record with id 9007199254740993: a clone copies ids up to 9007199254740991 (2^53-1) exactly');
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
